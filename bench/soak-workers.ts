/**
 * The soak's worker processes (`sopworks worker`, the real command): started, killed with -9 and started
 * again in the same slot; slot 0 reaches Redis through the soak's TCP proxy, so its line can be cut.
 * Every line each process printed is kept, across restarts, for the soak's counts.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT } from './scale-phase.ts';

const STARTED = Date.now();

export interface WorkerSlot {
  index: number;
  /** Redis as this slot reaches it (slot 0: through the proxy). */
  url: string;
  child: ChildProcess | null;
  /** Whether the slot's current process has said it is up (connected, taking jobs). */
  ready: boolean;
  /** When it said so (Date.now()). */
  upAt: number;
  /** Lines of every process this slot ran, in order. */
  lines: string[];
  starts: number;
}

/** The secret the soak's jobs are signed with, and its workers check them with. */
export const SOAK_SECRET = randomBytes(32).toString('hex');

export interface WorkerSettings {
  concurrency: number;
  lockMs: number;
  latencyMs: number;
}

export function startSlot(slot: WorkerSlot, settings: WorkerSettings): void {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SOPWORKS_REDIS_URL: slot.url,
    SOPWORKS_QUEUE_SECRET: SOAK_SECRET,
    SOPWORKS_SCRIPTED_LATENCY_MS: String(settings.latencyMs),
    NO_COLOR: '1',
  };
  for (const name of Object.keys(env)) if (name.startsWith('OPENAI_')) delete env[name];
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin', 'sopworks.js'),
      'worker',
      '--concurrency',
      String(settings.concurrency),
      '--lock-ms',
      String(settings.lockMs),
      '--runs-root',
      os.tmpdir(),
    ],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let buffered = '';
  const take = (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    if (slot.child === child && !slot.ready && parts.some((line) => /^Worker \S+ \(sopworks /.test(line))) [slot.ready, slot.upAt] = [true, Date.now()];
    // When each line came, in seconds since the soak's start: a stall is read from the gaps.
    const at = ((Date.now() - STARTED) / 1000).toFixed(1);
    slot.lines.push(...parts.map((line) => `[${slot.index}.${slot.starts} +${at}s] ${line}`));
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  slot.child = child;
  slot.ready = false;
  slot.starts += 1;
}

/** Whether a process has ended, by an exit or by a signal (then exitCode stays null). */
export const gone = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/** How a slot's process ended, for a person: "code 1", "signal SIGABRT". */
export const howEnded = (child: ChildProcess): string => (child.exitCode !== null ? `code ${child.exitCode}` : `signal ${child.signalCode}`);

/** How many runs the slot's current process is at work on, by its own lines (it started or resumed them, and said no more). */
export function runsUnderWay(slot: WorkerSlot): number {
  const last = new Map<string, string>();
  for (const line of slot.lines.filter((l) => l.startsWith(`[${slot.index}.${slot.starts} `))) {
    const [, job, what] = /\] (\S+) \S+: (starting|resuming|done|handed back|failed|held by)/.exec(line) ?? [];
    if (job) last.set(job, what!);
  }
  return [...last.values()].filter((what) => what === 'starting' || what === 'resuming').length;
}

/** The slot's last lines, for a report. */
export const lastLines = (slot: WorkerSlot, n = 8): string[] => slot.lines.slice(-n);

/** kill -9, waited for: the slot is empty afterwards. */
export async function killSlot(slot: WorkerSlot): Promise<void> {
  const child = slot.child;
  if (!child) return;
  slot.child = null;
  if (gone(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

export interface Stopped {
  code: number | null;
  /** Set when the worker was still running `graceMs` after SIGTERM (then it was killed with -9). */
  hung: string | null;
}

/**
 * SIGTERM, as an operator stops a worker at the end: it hands back what it still runs and exits. One
 * still running after `graceMs` is a finding (a worker an operator cannot stop), said with its last
 * lines — and then killed, so the soak always ends.
 */
export async function stopSlot(slot: WorkerSlot, graceMs: number): Promise<Stopped> {
  const child = slot.child;
  if (!child) return { code: null, hung: null };
  slot.child = null;
  if (gone(child)) return { code: child.exitCode, hung: null };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const code = await Promise.race([exited, sleep(graceMs).then(() => 'hung' as const)]);
  if (code !== 'hung') return { code, hung: null };
  const hung = `worker ${slot.index} (pid ${child.pid}) was still running ${graceMs / 1000} s after SIGTERM; its last lines: ${lastLines(slot, 4).join(' | ')}`;
  child.kill('SIGKILL');
  await exited;
  return { code: null, hung };
}
