/**
 * The soak's faults, injected while the runs go on: a worker that is up killed with -9 every
 * --kill-every-ms and started again; Redis restarted cleanly at a fifth of the runs done and crashed at
 * three fifths; worker 0's line to Redis cut silently at two fifths (once it has runs under way), for
 * 2.5 lock times. The cut does not hold the rest up: kills go on while it lasts. It ends when every run
 * is done or nothing has moved for --stall-ms.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestRedis } from '../test/helpers/redis-server.ts';
import type { TcpProxy } from '../test/helpers/tcp-proxy.ts';
import { gone, howEnded, killSlot, lastLines, runsUnderWay, startSlot, type WorkerSlot } from './soak-workers.ts';

export interface FaultOptions {
  runs: number;
  concurrency: number;
  lockMs: number;
  killEveryMs: number;
  latencyMs: number;
  stallMs: number;
}

export interface Faults {
  kills: number;
  /** Workers that exited on their own (not killed by the soak): each is a finding. */
  crashes: string[];
  redisRestarts: { signal: string; atRunsDone: number }[];
  cuts: { ms: number; atRunsDone: number }[];
}

/** The faults every soak must have injected before its runs were done: else it proved less than it says. */
export function missingFaults(faults: Faults): string[] {
  const missing: string[] = [];
  if (faults.kills === 0) missing.push('no worker was killed');
  if (!faults.redisRestarts.some((r) => r.signal === 'SIGTERM')) missing.push('Redis was not restarted');
  if (!faults.redisRestarts.some((r) => r.signal === 'SIGKILL')) missing.push('Redis was not crashed');
  if (faults.cuts.length === 0) missing.push("worker 0's line was not cut");
  return missing;
}

/**
 * How many runs are done, as the queue says; a query that does not answer within a few seconds (Redis
 * down, a command lost in a reconnection) counts as no news, so the stall timer always runs.
 */
async function doneNow(counts: () => Promise<number>, previous: number): Promise<number> {
  return Promise.race([counts(), sleep(5000).then(() => previous)]).catch(() => previous);
}

export async function injectFaults(
  slots: WorkerSlot[],
  redis: TestRedis,
  proxy: TcpProxy,
  counts: () => Promise<number>,
  options: FaultOptions,
): Promise<Faults & { stalled: boolean }> {
  const faults: Faults = { kills: 0, crashes: [], redisRestarts: [], cuts: [] };
  const settings = { concurrency: options.concurrency, lockMs: options.lockMs, latencyMs: options.latencyMs };
  const log = (line: string) => process.stderr.write(`soak: ${line}\n`);
  let nextKill = Date.now() + options.killEveryMs;
  let restoreAt: number | null = null;
  let done = 0;
  let movedAt = Date.now();
  const end = (stalled: boolean) => {
    if (restoreAt !== null) proxy.restore();
    return { ...faults, stalled };
  };
  for (;;) {
    const now = await doneNow(counts, done);
    if (now !== done) [done, movedAt] = [now, Date.now()];
    if (done >= options.runs) return end(false);
    if (Date.now() - movedAt > options.stallMs) return end(true);
    if (restoreAt !== null && Date.now() >= restoreAt) {
      proxy.restore();
      restoreAt = null;
      log(`restored worker 0's line to Redis at ${done} runs done`);
    }
    const share = done / options.runs;
    if (faults.redisRestarts.length === 0 && share >= 0.2) {
      log(`restarting Redis cleanly (SIGTERM) at ${done} runs done`);
      await redis.restart({ signal: 'SIGTERM', downMs: 500 });
      faults.redisRestarts.push({ signal: 'SIGTERM', atRunsDone: done });
    } else if (faults.cuts.length === 0 && share >= 0.4 && (runsUnderWay(slots[0]!) > 0 || share >= 0.6)) {
      // Cut while worker 0 is in the middle of runs (they must stop and go to another worker), unless it
      // stays idle until three fifths are done.
      const ms = Math.round(options.lockMs * 2.5);
      log(`cutting worker 0's line to Redis for ${ms} ms at ${done} runs done`);
      proxy.cut('silent');
      restoreAt = Date.now() + ms;
      faults.cuts.push({ ms, atRunsDone: done });
    } else if (faults.redisRestarts.length === 1 && share >= 0.6) {
      log(`crashing Redis (SIGKILL) at ${done} runs done`);
      await redis.restart({ signal: 'SIGKILL', downMs: 500 });
      faults.redisRestarts.push({ signal: 'SIGKILL', atRunsDone: done });
    }
    // Only a worker that is up is killed: on a loaded machine a worker's start-up alone can take longer
    // than the interval, and killing it before it took a job would test nothing. The one up longest goes:
    // each worker lives (workers × interval), where a random pick killed a fresh one twice in a row at times.
    const up = slots.filter((s) => s.ready && s.child && !gone(s.child)).sort((a, b) => a.upAt - b.upAt);
    if (Date.now() >= nextKill && up.length > 0) {
      const slot = up[0]!;
      await killSlot(slot);
      faults.kills += 1;
      startSlot(slot, settings);
      nextKill = Date.now() + options.killEveryMs;
    }
    for (const slot of slots) {
      if (slot.child && gone(slot.child)) faults.crashes.push(`worker ${slot.index} exited with ${howEnded(slot.child)}: ${lastLines(slot, 3).join(' | ')}`);
      if (!slot.child || gone(slot.child)) startSlot(slot, settings);
    }
    await sleep(200);
  }
}
