/**
 * Runs one command as a child process in its own process group: no shell but a /bin/sh that joins its
 * stderr to its stdout and execs it, the environment it is given (nothing inherited), a wall-clock limit, capped output, and the whole group killed at the end.
 * The sandbox (run-sandboxed.ts) wraps the command; this is the bounded runner underneath.
 */
import { spawn } from 'node:child_process';

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** stdout and stderr on one pipe, in the order written, truncated to the cap (the tail is kept). */
  output: string;
  truncated: boolean;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Also called when the time is up (or `stop` fires), to stop what the process group does not hold (a cgroup, say). */
  onTimeout?: () => Promise<unknown>;
  /** Kills the command's group when it fires, as the time limit does: the run that started it no longer owns its folder. */
  stop?: AbortSignal | null;
  /**
   * Called once the command has exited, before its process group is killed: whatever of the run is
   * still alive now outlived it (the sandbox finds, reports and kills those here).
   */
  afterExit?: () => Promise<unknown>;
}

/** How long to wait for the output pipes to close after the command and its leftovers are gone. */
const PIPE_GRACE_MS = 2000;

export function runProcess(argv: readonly string[], options: RunOptions): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    if (argv.length === 0) return reject(new Error('empty command'));
    // One pipe for both streams, in the order they were written: read from two, a program's stderr and
    // stdout would interleave as they happened to arrive (cargo's `Running tests/cli.rs` on stderr, the
    // names of that binary's tests on stdout), and a test's name would depend on the machine's load.
    const child = spawn('/bin/sh', ['-c', 'exec 2>&1; exec "$@"', 'sopworks-output', ...argv], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    let timedOut = false;
    let exit: { exitCode: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    const collect = (chunk: Buffer) => {
      chunks.push(chunk);
      kept += chunk.length;
      // Keep the tail: drop whole chunks from the front while the rest still fills the cap.
      while (kept - chunks[0]!.length >= options.maxOutputBytes) {
        kept -= chunks.shift()!.length;
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
    const finish = () => {
      if (settled || !exit) return;
      settled = true;
      let output = Buffer.concat(chunks);
      if (output.length > options.maxOutputBytes) {
        output = output.subarray(output.length - options.maxOutputBytes);
        truncated = true;
      }
      resolve({ ...exit, timedOut, output: output.toString('utf8'), truncated });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
      void options.onTimeout?.().catch(() => undefined);
    }, options.timeoutMs);
    const onStop = () => {
      killGroup();
      void options.onTimeout?.().catch(() => undefined);
    };
    if (options.stop?.aborted) onStop();
    else options.stop?.addEventListener('abort', onStop, { once: true });
    child.once('close', () => options.stop?.removeEventListener('abort', onStop));
    child.on('error', (error) => {
      clearTimeout(timer);
      settled = true;
      reject(error);
    });
    let cleanedUp: Promise<void> | null = null;
    child.on('exit', (exitCode, signal) => {
      clearTimeout(timer);
      exit = { exitCode, signal };
      cleanedUp = (async () => {
        await options.afterExit?.().catch(() => undefined);
        killGroup(); // leftovers the command started must not outlive it
      })();
      void cleanedUp.then(() => {
        // A leftover nothing could find may still hold the pipes open: stop reading rather than hang.
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          finish();
        }, PIPE_GRACE_MS).unref();
      });
    });
    child.on('close', () => {
      clearTimeout(timer);
      void (cleanedUp ?? Promise.resolve()).then(finish);
    });
  });
}
