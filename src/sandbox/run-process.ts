/**
 * Runs a command in the generated project as a child process: no shell, a clean environment (no API
 * keys), a wall-clock limit, capped output, and the whole process group killed at the end.
 * Isolation proper (no network, read-only system) is the sandbox issue's; this is the bounded runner.
 */
import { spawn } from 'node:child_process';

export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** stdout and stderr interleaved as they arrived, truncated to the cap (the tail is kept). */
  output: string;
  truncated: boolean;
}

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  maxOutputBytes?: number;
}

/** Only what a test runner needs; nothing from the user's environment that could leak a secret. */
export function cleanEnvironment(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'HOME', 'PYENV_ROOT', 'PYENV_VERSION', 'NODE_PATH'];
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', CI: 'true' };
  for (const name of keep) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

export function runProcess(argv: readonly string[], options: RunOptions): Promise<ProcessResult> {
  const cap = options.maxOutputBytes ?? 256 * 1024;
  return new Promise((resolve, reject) => {
    const [command, ...args] = argv;
    if (!command) return reject(new Error('empty command'));
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: cleanEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let truncated = false;
    let timedOut = false;
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > cap) {
        output = output.slice(output.length - cap);
        truncated = true;
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      killGroup(); // leftovers the command started must not outlive it
      resolve({ exitCode, signal, timedOut, output, truncated });
    });
  });
}
