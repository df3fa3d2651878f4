/**
 * The CLI in this process: `commandLine` of src/apps/cli/main.ts — the same command table, session and
 * console output as bin/sopworks.js — without the start of a process (tsx loading ~500 modules again).
 * For every test that does not test the terminal or the process itself: signals, a crash, a
 * pseudo-terminal, standard input, the settings files main() loads, or two runs at once keep `runCli`.
 *
 * The environment is the clean one runCli gives a child (cleanEnv) and the working folder the one asked,
 * both set for the call and put back after it; calls wait for each other, as each has the process's
 * environment to itself.
 */
import process from 'node:process';
import { commandLine } from '../../src/apps/cli/index.ts';
import { type CliResult, cleanEnv, runCli } from './run-cli.ts';

export async function sopworks(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<CliResult> {
  // A crash point ends the process it is reached in (src/ground/crash-point.ts): that run has one of its own.
  if (options.env?.SOPWORKS_CRASH_AT) return runCli(args, options);
  let stdout = '';
  let stderr = '';
  const io = { out: (line: string) => (stdout += `${line}\n`), err: (line: string) => (stderr += `${line}\n`) };
  const code = await withEnvironment(cleanEnv(options.env), options.cwd, () => commandLine(['node', 'sopworks', ...args], io));
  return { code, stdout, stderr };
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `fn` with exactly `env` as the process's environment and `cwd` as its folder, both put back after;
 * after the calls made before it have ended.
 */
export function withEnvironment<T>(env: NodeJS.ProcessEnv, cwd: string, fn: () => Promise<T>): Promise<T> {
  const run = queue.then(() => alone(env, cwd, fn));
  queue = run.catch(() => undefined);
  return run;
}

async function alone<T>(env: NodeJS.ProcessEnv, cwd: string, fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  const folder = process.cwd();
  const replace = (next: NodeJS.ProcessEnv) => {
    for (const name of Object.keys(process.env)) if (!(name in next)) delete process.env[name];
    Object.assign(process.env, next);
  };
  replace(env);
  process.chdir(cwd);
  try {
    return await fn();
  } finally {
    process.chdir(folder);
    replace(saved);
  }
}
