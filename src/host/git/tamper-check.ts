/**
 * A project handed back to sopworks (`resume`, `review`, `status`, `serve`) may have been tampered with
 * — by generated code that got through a weaker sandbox, or by whoever sent the folder. sopworks' own
 * git cannot be made to run anything (git-hardening.ts), but a person typing `git status` there can,
 * and a record folder that is a link would take sopworks' writes elsewhere. This names what it finds:
 * refusals (a link where the repository or the run's record should be: writing there would follow it)
 * and warnings (planted hooks, config keys that run programs, redirections of the object store).
 * It only reads, with lstat, and runs nothing of the project's.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { hardenedGitEnv } from './git-hardening.ts';
import { cleanLine } from '../../ground/terminal-text.ts';

export interface TamperFindings {
  refusals: string[];
  warnings: string[];
}

/** Keys (lower-cased, as git lists them) whose value git runs, or that load more config. */
const EXECUTING_KEYS: RegExp[] = [
  /^core\.(fsmonitor|pager|sshcommand|editor|askpass|hookspath|gitproxy|attributesfile|excludesfile)$/,
  /^alias\..+$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^diff\..+\.(command|textconv)$/,
  /^diff\.external$/,
  /^merge\..+\.driver$/,
  /^credential(\..+)?\.helper$/,
  /^(gpg|gpg\..+)\.program$/,
  /^(sequence\.editor|pager\..+|include\.path|includeif\..+\.path|uploadpack\..+|receive\.procreceiverefs|protocol\..+\.allow|url\..+\.insteadof)$/,
];

async function listConfig(file: string): Promise<[string, string][]> {
  return new Promise((resolve) => {
    // `--file`: no repository is opened and no include is followed; nothing of it runs.
    const child = spawn('git', ['config', '--file', file, '--list', '-z'], { env: hardenedGitEnv(path.dirname(file)), stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', () => resolve([]));
    child.on('close', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('utf8')
          .split('\0')
          .filter(Boolean)
          .map((entry) => {
            const at = entry.indexOf('\n');
            return at === -1 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
          }),
      ),
    );
  });
}

const lstat = (file: string) => fs.lstat(file).catch(() => null);

export async function inspectProject(projectDir: string): Promise<TamperFindings> {
  const findings: TamperFindings = { refusals: [], warnings: [] };
  for (const name of ['.git', '.sopworks']) {
    const stat = await lstat(path.join(projectDir, name));
    if (stat?.isSymbolicLink())
      findings.refusals.push(`${name} is a symbolic link (to ${await fs.readlink(path.join(projectDir, name)).catch(() => '?')}), not a folder`);
  }
  const gitDir = path.join(projectDir, '.git');
  if (!(await lstat(gitDir))?.isDirectory()) return findings;
  for (const hook of await fs.readdir(path.join(gitDir, 'hooks')).catch(() => [] as string[])) {
    if (!hook.endsWith('.sample')) findings.warnings.push(`a hook was planted: .git/hooks/${hook}`);
  }
  const config = path.join(gitDir, 'config');
  if ((await lstat(config))?.isSymbolicLink()) findings.refusals.push('.git/config is a symbolic link');
  else {
    for (const [key, value] of await listConfig(config)) {
      if (EXECUTING_KEYS.some((re) => re.test(key)))
        findings.warnings.push(`.git/config sets ${key} = ${value.length > 80 ? `${value.slice(0, 77)}…` : value}`);
    }
  }
  for (const file of ['commondir', 'objects/info/alternates', 'info/attributes']) {
    if (await lstat(path.join(gitDir, file))) findings.warnings.push(`.git/${file} exists (it redirects what git reads, or names filters)`);
  }
  return findings;
}

/** One line for a person: what was found, and that sopworks' own git runs none of it. */
export function describeFindings(dir: string, findings: TamperFindings): string[] {
  // What was found quotes the repository (a config value, a hook's name): one clean line each.
  return [
    ...findings.refusals.map((r) => cleanLine(`${dir}: ${r}`)),
    ...findings.warnings.map((w) => cleanLine(`${dir}: ${w} — sopworks' git never runs it, but your git would: inspect and remove it before using git there`)),
  ];
}
