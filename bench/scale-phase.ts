/**
 * One phase of `npm run bench:scale`: N real worker processes (scale-worker.ts) take a batch of queued
 * runs from a real Redis until every run has ended; what the phase measured, and why any run failed —
 * a run that fails is a finding, never a figure (the phase's throughput would count failures as runs).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Queue } from 'bullmq';
import { type JobData, type JobFields, QUEUE_NAME } from '../src/apps/queue/job-data.ts';
import { signJob } from '../src/apps/queue/job-signature.ts';
import { SOPWORKS_VERSION } from '../src/ground/version.ts';
import type { TestRedis } from '../test/helpers/redis-server.ts';
import { watchSteal } from './cpu-steal.ts';
import type { RpmEndpoint } from './rpm-endpoint.ts';

/** The queue's secret for this benchmark's submitter and workers. */
const BENCH_SECRET = randomBytes(32).toString('hex');

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCENARIOS = ['roman', 'caesar', 'vowels', 'fizzbuzz', 'slugify', 'leapyear', 'colsum', 'fibonacci', 'palindrome', 'temperature'];
/** A phase with no run ending for this long has stalled: the benchmark says so instead of waiting forever. */
const STALL_MS = 300_000;

export interface PhaseSettings {
  workers: number;
  runs: number;
  /** The endpoint's and the workers' requests per minute; null: no limit. */
  rpm: number | null;
  concurrency: number;
  /** The SOP folder the runs use (bench/sops). */
  sops: string;
  out: string;
}

export interface PhaseResult {
  workers: number;
  runs: number;
  failed: number;
  /** Each distinct reason a run failed, with how many runs failed with it. */
  failures: { reason: string; runs: number }[];
  wallMs: number;
  runsPerMin: number;
  callsPerMin: number;
  /** Calls per minute while runs were still waiting for a worker (the queue not yet empty); null when none ever waited. */
  saturatedCallsPerMin: number | null;
  refused: number;
  retries: number;
  limiterWaits: number;
  /** The 1-minute load average when the phase started and ended, and the CPU time the hypervisor stole meanwhile. */
  load: [number, number];
  stealPct: number | null;
}

interface WorkerProcess {
  child: ChildProcess;
  output: string;
  exited: Promise<number | null>;
}

function startWorkers(count: number, env: NodeJS.ProcessEnv, concurrency: number): Promise<WorkerProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'scale-worker.ts'), String(concurrency)], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const worker: WorkerProcess = { child, output: '', exited: new Promise((resolve) => child.once('close', resolve)) };
      const take = (chunk: Buffer) => (worker.output += chunk.toString());
      child.stdout!.on('data', take);
      child.stderr!.on('data', take);
      return new Promise<WorkerProcess>((resolve, reject) => {
        const ready = setInterval(() => {
          if (/^Worker \S+ \(sopworks/m.test(worker.output)) {
            clearInterval(ready);
            resolve(worker);
          }
        }, 50);
        void worker.exited.then((code) => {
          clearInterval(ready);
          reject(new Error(`a worker exited before it was ready (code ${code}):\n${worker.output}`));
        });
      });
    }),
  );
}

/** Stops the workers as an operator would (SIGTERM) and adds up what they report. */
async function stopWorkers(workers: WorkerProcess[]): Promise<{ retries: number; limiterWaits: number }> {
  const totals = { retries: 0, limiterWaits: 0 };
  await Promise.all(
    workers.map(async (w) => {
      w.child.kill('SIGTERM');
      await w.exited;
      const figures = w.output
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { retries?: number })
        .at(-1);
      totals.retries += figures?.retries ?? 0;
      totals.limiterWaits += Number(/waited (\d+) times/.exec(w.output)?.[1] ?? 0);
    }),
  );
  return totals;
}

function jobsFor(settings: PhaseSettings, dir: string): { name: string; data: JobData; opts: { jobId: string } }[] {
  return Array.from({ length: settings.runs }, (_, i) => {
    const scenario = SCENARIOS[i % SCENARIOS.length]!;
    const jobId = `${path.basename(dir)}-${i}`;
    const fields: JobFields = {
      version: SOPWORKS_VERSION,
      name: `${scenario}-${i}`,
      spec: scenario,
      scenario: path.join(ROOT, 'examples', 'eval', `${scenario}.yaml`),
      out: dir,
      llm: null,
      model: null,
      sops: settings.sops,
      roles: path.join(ROOT, 'roles'),
      allowUnsandboxed: false,
      submittedAt: new Date().toISOString(),
    };
    const data: JobData = { ...fields, signature: signJob(jobId, fields, BENCH_SECRET) };
    return { name: data.name, data, opts: { jobId } };
  });
}

/** Why the runs failed: BullMQ's failed reason of each failed job, grouped. */
async function failureReasons(queue: Queue): Promise<{ reason: string; runs: number }[]> {
  const counts = new Map<string, number>();
  for (const job of await queue.getJobs(['failed'])) {
    const reason = (job?.failedReason ?? 'no reason recorded').split('\n')[0]!;
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts].map(([reason, runs]) => ({ reason, runs })).sort((a, b) => b.runs - a.runs);
}

export async function runPhase(redis: TestRedis, queue: Queue, endpoint: RpmEndpoint, settings: PhaseSettings): Promise<PhaseResult> {
  await queue.obliterate({ force: true });
  endpoint.reset();
  endpoint.setLimit(settings.rpm);
  const env = {
    ...process.env,
    SOPWORKS_REDIS_URL: redis.url,
    BENCH_ENDPOINT: endpoint.url,
    SOPWORKS_RPM: settings.rpm === null ? '' : String(settings.rpm),
    SOPWORKS_MODEL: 'bench-model',
    SOPWORKS_QUEUE_SECRET: BENCH_SECRET,
    BENCH_RUNS_ROOT: settings.out,
    NO_COLOR: '1',
  };
  const procs = await startWorkers(settings.workers, env, settings.concurrency);
  const dir = path.join(settings.out, `w${settings.workers}-${settings.rpm ?? 'free'}`);
  const loadBefore = os.loadavg()[0]!;
  const steal = watchSteal();
  const started = Date.now();
  await queue.addBulk(jobsFor(settings, dir));
  let saturatedUntil: number | null = null;
  let ended = 0;
  let lastChange = Date.now();
  for (;;) {
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed');
    if (saturatedUntil === null && counts.waiting! + counts.prioritized! + counts.delayed! === 0) saturatedUntil = Date.now();
    if (counts.completed! + counts.failed! !== ended) [ended, lastChange] = [counts.completed! + counts.failed!, Date.now()];
    if (ended >= settings.runs) break;
    const dead = procs.find((p) => p.child.exitCode !== null);
    if (dead) throw new Error(`a worker exited in the middle of the phase (code ${dead.child.exitCode}):\n${dead.output}`);
    if (Date.now() - lastChange > STALL_MS) throw new Error(`no run ended for ${STALL_MS / 1000} s (${JSON.stringify(counts)}): the phase stalled`);
    await sleep(100);
  }
  const wallMs = Date.now() - started;
  const stealPct = steal();
  const loadAfter = os.loadavg()[0]!;
  const failures = await failureReasons(queue);
  const failed = failures.reduce((sum, f) => sum + f.runs, 0);
  const { retries, limiterWaits } = await stopWorkers(procs);
  const calls = endpoint.accepted.length;
  const first = endpoint.accepted[0] ?? started;
  const saturatedCalls = endpoint.accepted.filter((t) => t <= saturatedUntil!).length;
  return {
    workers: settings.workers,
    runs: settings.runs,
    failed,
    failures,
    wallMs,
    // Runs that ended done: a failed run is not throughput.
    runsPerMin: round(((settings.runs - failed) / wallMs) * 60_000, 1),
    callsPerMin: round((calls / wallMs) * 60_000, 0),
    saturatedCallsPerMin: saturatedUntil! - first < 1000 ? null : round((saturatedCalls / (saturatedUntil! - first)) * 60_000, 0),
    refused: endpoint.refused,
    retries,
    limiterWaits,
    load: [round(loadBefore, 2), round(loadAfter, 2)],
    stealPct,
  };
}

export const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

export { QUEUE_NAME };
