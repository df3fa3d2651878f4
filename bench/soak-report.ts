/**
 * What the soak prints: why it stalled, when it did (each run not done — its job's state, who holds its
 * lease, the last line a worker said of it — and each worker's last lines), and the counts at the end.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { leaseKey } from '../src/apps/queue/run-lease.ts';
import type { RunQueue } from '../src/apps/queue/run-queue.ts';
import { gone, howEnded, lastLines, type WorkerSlot } from './soak-workers.ts';

export interface SubmittedRun {
  name: string;
  scenario: string;
  out: string;
  jobId: string;
}

const LeaseValue = z.object({ owner: z.string() });

const parsedJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** A lease's holder and time left, as Redis has it. */
async function leaseOf(redis: Redis, projectDir: string): Promise<string> {
  const key = leaseKey(projectDir);
  const [value, left] = await Promise.all([redis.get(key), redis.pttl(key)]);
  if (value === null) return 'no lease';
  const lease = LeaseValue.safeParse(parsedJson(value));
  return `leased by ${lease.success ? lease.data.owner : `a value that is no lease (${value.slice(0, 40)})`} for ${left} ms more`;
}

/** One line per run that is not done. */
async function runsNotDone(queue: RunQueue, redis: Redis, submitted: SubmittedRun[], slots: WorkerSlot[]): Promise<string[]> {
  const lines: string[] = [];
  const said = slots.flatMap((s) => s.lines);
  for (const run of submitted) {
    const job = await queue.getJob(run.jobId);
    const state = job ? await job.getState() : 'missing';
    if (state === 'completed') continue;
    const project = path.join(run.out, run.name);
    const record = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8').catch(() => '{}')) as { outcome?: string };
    const last = said.filter((l) => l.includes(run.jobId)).at(-1) ?? 'no worker said anything of it';
    const attempts = job ? `, attempt ${job.attemptsMade}${job.failedReason ? ` (${job.failedReason})` : ''}` : '';
    lines.push(
      `  ${path.basename(run.out)}/${run.name} (${run.jobId}): job ${state}${attempts}; run ${record.outcome ?? 'without an outcome'}; ${await leaseOf(redis, project)}; last: ${last}`,
    );
  }
  return lines;
}

/** Why the soak stalled, from the queue, the leases and the workers' own lines. */
export async function stallReport(queue: RunQueue, redis: Redis, submitted: SubmittedRun[], slots: WorkerSlot[]): Promise<string> {
  const lines = ['Stalled: the runs not done, and each worker’s last lines:'];
  lines.push(...(await runsNotDone(queue, redis, submitted, slots).catch((error: Error) => [`  (the queue could not be read: ${error.message})`])));
  for (const slot of slots) {
    const state = !slot.child
      ? 'stopped'
      : gone(slot.child)
        ? `ended with ${howEnded(slot.child)}`
        : `pid ${slot.child.pid}, ${slot.ready ? 'up' : 'starting'}`;
    lines.push(`  worker ${slot.index} (${state}, ${slot.starts} starts):`, ...lastLines(slot).map((l) => `    ${l}`));
  }
  return lines.join('\n');
}

export interface Verdict {
  runs: number;
  done: number;
  identical: number;
  foldersPerRun: string[];
  /** unfinished: waiting, delayed or active when the soak ended; lost: gone from the queue. */
  jobs: { completed: number; failed: number; unfinished: number; lost: number };
  completionsPerRun: Record<string, number>;
  handedBack: number;
  takenOver: number;
  broken: string[];
}

export interface Summary {
  machine: string;
  wallS: number;
  faults: { kills: number; workerStarts: number; crashes: string[]; redisRestarts: { signal: string }[]; cuts: { ms: number }[] };
  verdict: Verdict;
  outcome: string;
}

export function printSummary(s: Summary): void {
  const v = s.verdict;
  const completions = Object.values(v.completionsPerRun);
  const lines = [
    `Machine: ${s.machine}; ${s.wallS} s under faults`,
    `Runs: ${v.runs} submitted, ${v.done} done, ${v.identical} identical to an uninterrupted run (tree, commits, board)`,
    `Folders: ${v.foldersPerRun.join('; ')}`,
    `Jobs: ${v.jobs.completed} completed, ${v.jobs.failed} failed, ${v.jobs.unfinished} unfinished, ${v.jobs.lost} lost`,
    `Completions: ${completions.filter((n) => n === 1).length} runs concluded done once, ${completions.filter((n) => n > 1).length} more than once, ${completions.filter((n) => n === 0).length} never`,
    `Faults: ${s.faults.kills} workers killed with -9 (${s.faults.workerStarts} worker starts), Redis restarted ${s.faults.redisRestarts.length} times (${s.faults.redisRestarts.map((r) => r.signal).join(', ')}), ${s.faults.cuts.length} line cut (${s.faults.cuts.map((c) => `${c.ms} ms`).join(', ')}), ${s.faults.crashes.length} workers exited on their own`,
    `Recovery: ${v.takenOver} take-ups of an unfinished run, ${v.handedBack} runs handed back`,
    `Outcome: ${s.outcome}`,
    ...v.broken.map((b) => `  - ${b}`),
    ...s.faults.crashes.map((c) => `  ! ${c}`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
