/**
 * Runs git as a plain child process (simple-git cost ~50 ms more per call here, measured on `git add`).
 * Commits themselves go through the run's one `git fast-import` (git-importer.ts); this is for the rest:
 * starting the repository, reading its history, bringing the index up to date.
 * The environment is the caller's minus `GIT_*` variables, so a run started from inside a git hook (or
 * with GIT_DIR set) still works on the generated repository and nothing else; and git looks for the
 * repository in `cwd` only, never in a folder above it — a project whose repository is not made yet
 * (it is made with the first commit) must not be taken for the repository around the output folder.
 * Every git runs hardened (git-hardening.ts): nothing the repository's config names is executed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { definedConfig } from './defined-config.ts';
import { configOverrides, hardenedGitEnv, MAX_OVERRIDES } from './git-hardening.ts';
import { checkGitVersion } from './git-version.ts';

export interface GitResult {
  stdout: string;
  stderr: string;
}

/**
 * Hardened: a tampered repository's hooks, fsmonitor, pagers, helpers, signature programs, aliases,
 * filters, textconv and drivers never run (git-hardening.ts) — every key that names a program, defined
 * where this git reads configuration, is overridden by name, found afresh for each process
 * (defined-config.ts). What cannot be seen whole, or neutralised within an environment's room, is
 * refused before any git runs there.
 */
export async function gitEnv(cwd: string): Promise<NodeJS.ProcessEnv> {
  await checkGitVersion();
  const defined = await definedConfig(cwd);
  const overrides = configOverrides(defined.keys);
  const refusals = [
    ...defined.refusals,
    ...(overrides.length > MAX_OVERRIDES ? [`its configuration defines ${overrides.length} keys that name programs (more than ${MAX_OVERRIDES})`] : []),
  ];
  if (refusals.length > 0) {
    throw new SopworksError('REPOSITORY_REFUSED', cleanLine(`Refused to run git in ${cwd}: ${refusals.join('; ')}.`), {
      hint: 'sopworks overrides every configuration key that names a program before it runs git, and could not here. Fix or remove what is named (git config --file <file> --list shows it); nothing was run.',
    });
  }
  return hardenedGitEnv(cwd, overrides);
}

/** Commands that would show a signature, and so run its verifier, when the config asks: told not to. */
const SHOWS_SIGNATURES = new Set(['log', 'show', 'whatchanged']);

/** The arguments with `--no-show-signature` after the subcommand, where it applies (after any `-c key=value`). */
export function withoutSignatures(args: readonly string[]): string[] {
  let at = 0;
  while (args[at] === '-c') at += 2;
  while (args[at]?.startsWith('--') && !SHOWS_SIGNATURES.has(args[at]!)) at += 1;
  const command = args[at];
  if (command === undefined || !SHOWS_SIGNATURES.has(command)) return [...args];
  return [...args.slice(0, at + 1), '--no-show-signature', ...args.slice(at + 1)];
}

export interface GitOptions {
  /** Exit codes that are not failures (e.g. 1 for `rev-parse --verify --quiet` of a missing ref). */
  okCodes?: number[];
  /** Identity and dates of a commit (GIT_AUTHOR_*, GIT_COMMITTER_*), set after the hardening: nothing else. */
  identity?: Partial<
    Record<'GIT_AUTHOR_NAME' | 'GIT_AUTHOR_EMAIL' | 'GIT_AUTHOR_DATE' | 'GIT_COMMITTER_NAME' | 'GIT_COMMITTER_EMAIL' | 'GIT_COMMITTER_DATE', string>
  >;
}

/** Runs `git <args>` in `cwd`; rejects with GIT_FAILED (and git's own words) on any other exit. */
export async function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult & { code: number }> {
  const env = await gitEnv(cwd);
  return new Promise((resolve, reject) => {
    const child = spawn('git', withoutSignatures(args), { cwd, env: { ...env, ...options.identity }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) =>
      reject(
        new SopworksError('GIT_FAILED', `Could not start git (${(error as NodeJS.ErrnoException).code ?? error.message}).`, {
          hint: 'sopworks needs git on the PATH: install it (e.g. apt-get install -y git).',
          cause: error,
        }),
      ),
    );
    child.on('close', (code) => {
      const result = { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1 };
      if (code === 0 || (code !== null && options.okCodes?.includes(code))) return resolve(result);
      reject(new SopworksError('GIT_FAILED', `git ${args[0]} failed in ${cwd} (exit ${code ?? 'by signal'}): ${result.stderr.trim() || result.stdout.trim()}`));
    });
  });
}

/** The executable's path on the PATH, or null: a check that costs no process. */
export function findOnPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
