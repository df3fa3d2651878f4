/**
 * Read-only git queries whose failure means "nothing there": a configuration file's entries read by
 * git's own parser, and a query's stdout. Nothing of the file or of a repository runs (the caller's
 * environment is hardened; `git config --file` opens no repository and follows no include).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { hardenedGitEnv } from './git-hardening.ts';

export type ConfigEntry = [key: string, value: string];

/** git's stdout, or '' when git cannot be started; stderr is dropped. */
export function gitStdout(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('git', args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', () => resolve(''));
    child.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/**
 * One file's entries, keys lower-cased as git lists them, its includes not followed (none when it is
 * missing or unreadable). Run from the temp folder with a hardened environment, so no repository
 * around the caller is opened either.
 */
export async function readConfigFile(file: string): Promise<ConfigEntry[]> {
  const listed = await gitStdout(['config', '--file', file, '--no-includes', '--list', '-z'], { cwd: os.tmpdir(), env: hardenedGitEnv(os.tmpdir()) });
  return listed
    .split('\0')
    .filter(Boolean)
    .map((item): ConfigEntry => {
      const at = item.indexOf('\n');
      return at === -1 ? [item, ''] : [item.slice(0, at), item.slice(at + 1)];
    });
}
