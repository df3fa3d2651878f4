/**
 * Read-only git queries: a configuration file's entries read by git's own parser, and a query's stdout.
 * Nothing of the file or of a repository runs (the caller's environment is hardened; `git config
 * --file` opens no repository and follows no include).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { hardenedGitEnv } from './git-hardening.ts';

export type ConfigEntry = [key: string, value: string];

interface Output {
  stdout: string;
  stderr: string;
  code: number | null;
}

function runGit(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Output> {
  return new Promise((resolve) => {
    const child = spawn('git', args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => resolve({ stdout: '', stderr: error.message, code: null }));
    child.on('close', (code) => resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code }));
  });
}

/** git's stdout, or '' when git cannot be started; stderr is dropped. */
export async function gitStdout(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return (await runGit(args, options)).stdout;
}

/**
 * One file's entries, keys lower-cased as git lists them, its includes not followed, and git's words
 * when its parser refuses the file (a missing or unreadable file has no entries and no error: git
 * skips it too). Run from the temp folder with a hardened environment, so no repository around the
 * caller is opened either.
 */
export async function readConfigFile(file: string): Promise<{ entries: ConfigEntry[]; error: string | null }> {
  const listed = await runGit(['config', '--file', file, '--no-includes', '--list', '-z'], { cwd: os.tmpdir(), env: hardenedGitEnv(os.tmpdir()) });
  const entries = listed.stdout
    .split('\0')
    .filter(Boolean)
    .map((item): ConfigEntry => {
      const at = item.indexOf('\n');
      return at === -1 ? [item, ''] : [item.slice(0, at), item.slice(at + 1)];
    });
  const error = listed.code === 0 ? null : listed.stderr.trim().split('\n')[0] || `git config exited ${listed.code ?? 'by signal'}`;
  return { entries, error };
}
