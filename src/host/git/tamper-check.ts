/**
 * A project handed back to sopworks (`resume`, `review`, `status`, `serve`) may have been tampered with
 * — by generated code that got through a weaker sandbox, or by whoever sent the folder. sopworks' own
 * git overrides every key that names a program (git-hardening.ts), but a person typing `git status` there can be made to run one,
 * and a record folder that is a link would take sopworks' writes elsewhere. This names what it finds:
 * refusals (a link where the repository or the run's record should be: writing there would follow it)
 * and warnings (planted hooks, config keys that run programs, redirections of the object store).
 * It only reads, with lstat, and runs nothing of the project's.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { cleanLine } from '../../ground/terminal-text.ts';
import { git } from './git-process.ts';
import { programKeyClass } from './program-keys.ts';
import { readConfigFile } from './read-config-file.ts';

export interface TamperFindings {
  refusals: string[];
  warnings: string[];
}

/** Keys that run nothing themselves but change what git reads or where it goes, and what each does. */
const REDIRECTING_KEYS: [RegExp, string][] = [
  [/^(include\.path|includeif\..+\.path)$/, 'it loads another configuration file; sopworks reads it and overrides every program it names'],
  [/^core\.(attributesfile|excludesfile)$/, 'it names a file git reads'],
  [/^url\..+\.insteadof$/, 'it rewrites remote addresses; sopworks fetches nothing'],
  [/^receive\.procreceiverefs$/, 'it hands pushes to a hook; sopworks runs no hook'],
];

/** What a configuration key does, for a person; null when it is harmless. */
function keyFinding(key: string): string | null {
  const program = programKeyClass(key);
  if (program) return `${program.kind}: sopworks' git overrides it by name, your own git would run it`;
  return REDIRECTING_KEYS.find(([re]) => re.test(key))?.[1] ?? null;
}

const lstat = (file: string) => fs.lstat(file).catch(() => null);

/** Where git keeps a project's metadata: its `.git` folder, or — a work tree of another repository (`sopworks change`) — the folders its `.git` file points to. */
interface GitDirs {
  /** This work tree's own folder, and how a finding names it. */
  gitDir: string;
  /** The repository's shared folder (config, hooks, info, objects): the same as gitDir but for a linked work tree. */
  common: string;
  label: (file: string) => string;
  linked: boolean;
}

async function locateGitDirs(projectDir: string): Promise<GitDirs | null> {
  const dotGit = path.join(projectDir, '.git');
  const stat = await lstat(dotGit);
  if (stat?.isDirectory()) return { gitDir: dotGit, common: dotGit, label: (file) => path.posix.join('.git', file), linked: false };
  if (!stat?.isFile()) return null;
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await fs.readFile(dotGit, 'utf8').catch(() => ''));
  if (!pointer) return null;
  const gitDir = path.resolve(projectDir, pointer[1]!);
  const common = await fs.readFile(path.join(gitDir, 'commondir'), 'utf8').then(
    (text) => path.resolve(gitDir, text.trim()),
    () => gitDir,
  );
  return { gitDir, common, label: (file) => path.join(common, file), linked: true };
}

async function configFindings(file: string, shown: string, into: TamperFindings): Promise<void> {
  const stat = await lstat(file);
  if (stat?.isSymbolicLink()) return void into.refusals.push(`${shown} is a symbolic link`);
  for (const [key, value] of (await readConfigFile(file)).entries) {
    const finding = keyFinding(key);
    if (finding) into.warnings.push(`${shown} sets ${key} = ${value.length > 80 ? `${value.slice(0, 77)}…` : value} (${finding})`);
  }
}

export async function inspectProject(projectDir: string): Promise<TamperFindings> {
  const findings: TamperFindings = { refusals: [], warnings: [] };
  for (const name of ['.git', '.sopworks']) {
    const stat = await lstat(path.join(projectDir, name));
    if (stat?.isSymbolicLink())
      findings.refusals.push(`${name} is a symbolic link (to ${await fs.readlink(path.join(projectDir, name)).catch(() => '?')}), not a folder`);
  }
  const dirs = await locateGitDirs(projectDir);
  if (!dirs) return findings;
  const { common, gitDir, label } = dirs;
  for (const hook of await fs.readdir(path.join(common, 'hooks')).catch(() => [] as string[])) {
    if (!hook.endsWith('.sample'))
      findings.warnings.push(`a hook was planted: ${label(`hooks/${hook}`)} (sopworks' git runs no hook, your own git would run it)`);
  }
  await configFindings(path.join(common, 'config'), label('config'), findings);
  for (const worktreeConfig of new Set([path.join(gitDir, 'config.worktree'), path.join(common, 'config.worktree')])) {
    if (await lstat(worktreeConfig)) await configFindings(worktreeConfig, dirs.linked ? worktreeConfig : label('config.worktree'), findings);
  }
  // A linked work tree's folder names its repository with `commondir`: that one is git's own.
  for (const file of [...(dirs.linked ? [] : ['commondir']), 'objects/info/alternates', 'info/attributes']) {
    if (await lstat(path.join(common, file)))
      findings.warnings.push(`${label(file)} exists (it redirects what git reads, or names drivers; sopworks' git switches every driver off)`);
  }
  return findings;
}

/**
 * What a repository's attributes at `base` ask git to run: each `.gitattributes` of the tree and the
 * repository's `info/attributes` that names a filter, diff or merge driver (`filter=<name>`,
 * `diff=<name>`, `merge=<name>`, in a macro too). Read with `git cat-file`, which applies no filter.
 * Each is named: sopworks' git switches every defined driver off (git-hardening.ts), a person's does not.
 */
export async function attributeDrivers(repo: string, base: string): Promise<string[]> {
  const found: string[] = [];
  const scan = (text: string, where: string) => {
    for (const match of text.matchAll(/(?:^|\s)(filter|diff|merge)=(\S+)/gm)) found.push(`${where} names the ${match[1]} driver "${match[2]}"`);
  };
  // ls-tree and cat-file blob apply no driver: none to switch off.
  const { stdout } = await git(repo, ['ls-tree', '-r', '-z', base]);
  for (const entry of stdout.split('\0').filter(Boolean)) {
    const [meta, file] = entry.split('\t') as [string, string];
    const [, type, object] = meta.split(' ') as [string, string, string];
    if (type !== 'blob' || path.posix.basename(file) !== '.gitattributes') continue;
    scan((await git(repo, ['cat-file', 'blob', object])).stdout, file);
  }
  const dirs = await locateGitDirs(repo);
  if (dirs) scan(await fs.readFile(path.join(dirs.common, 'info', 'attributes'), 'utf8').catch(() => ''), dirs.label('info/attributes'));
  return [...new Set(found)];
}

/** One line for a person: what was found, and that sopworks' own git runs none of it. */
export function describeFindings(dir: string, findings: TamperFindings): string[] {
  // What was found quotes the repository (a config value, a hook's name): one clean line each.
  return [
    ...findings.refusals.map((r) => cleanLine(`${dir}: ${r}`)),
    ...findings.warnings.map((w) => cleanLine(`${dir}: ${w} — inspect and remove it before using git there`)),
  ];
}
