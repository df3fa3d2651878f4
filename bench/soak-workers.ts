/**
 * The soak's worker processes (`sopworks worker`, the real command): started, killed with -9 and started
 * again in the same slot; slot 0 reaches Redis through the soak's TCP proxy, so its line can be cut.
 * Every line each process printed is kept, across restarts, for the soak's counts.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './scale-phase.ts';

const STARTED = Date.now();

export interface WorkerSlot {
  index: number;
  /** Redis as this slot reaches it (slot 0: through the proxy). */
  url: string;
  child: ChildProcess | null;
  /** Whether the slot's current process has said it is up (connected, taking jobs). */
  ready: boolean;
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
    if (slot.child === child && parts.some((line) => /^Worker \S+ \(sopworks /.test(line))) slot.ready = true;
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

/** kill -9, waited for: the slot is empty afterwards. */
export async function killSlot(slot: WorkerSlot): Promise<void> {
  const child = slot.child;
  if (!child) return;
  slot.child = null;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** SIGTERM, as an operator stops a worker at the end: it hands back what it still runs. */
export async function stopSlot(slot: WorkerSlot): Promise<number | null> {
  const child = slot.child;
  if (!child) return null;
  slot.child = null;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}
