/** Runs the CLI as a child process, as a user would: the JavaScript built from src/ before the suite (paths.ts, BIN). */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { BIN } from './paths.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A config folder that holds no sopworks config: the developer's own (~/.config/sopworks) stays out of tests. */
export const NO_USER_CONFIG = path.join(os.tmpdir(), 'sopworks-tests-no-user-config');

/** Environment without any model or proxy settings from the developer's machine. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('OPENAI_') && !name.startsWith('SOPWORKS_') && !/^(https?|no)_proxy$/i.test(name)) env[name] = value;
  }
  return { ...env, NO_COLOR: '1', XDG_CONFIG_HOME: NO_USER_CONFIG, ...extra };
}

export function runCli(args: string[], options: { cwd: string; env?: Record<string, string>; bin?: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], { cwd: options.cwd, env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
