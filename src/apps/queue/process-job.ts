/**
 * What a worker does with one job: checks it — its signature (job-signature.ts), its version, then that
 * it stays within the worker's limits (job-admission.ts) — takes the run's lease in Redis (run-lease.ts:
 * a run is worked on by one worker at a time, on any machine), checks its folder, brings its run to an
 * outcome with the code `sopworks run`/`resume` use (eval/run-spec.ts) — resuming it when an earlier
 * worker left it unfinished — and tells BullMQ how it went:
 *
 * - unsigned, mis-signed, or beyond the worker's limits → refused: the job fails once, saying why, and
 *   stays in `sopworks jobs`; nothing of it runs;
 * - `done`, or `paused` where `submit --until` asked → the job completes; so does a job handed out again
 *   after its run paused there (it is not resumed past its point);
 * - `paused` at the endpoint's limit (no SOPWORKS_WAIT_FOR_QUOTA) → fails once, saying when it resets;
 * - another final outcome, a bad spec, a SOP error, a missing run folder → UnrecoverableError: the job
 *   fails once, never retried (a retry cannot fix it);
 * - the run's lease held by a live worker → the job waits (delayed) until that lease would have expired,
 *   without using up an attempt;
 * - interrupted while the worker shuts down (SIGTERM), or stopped because its lease was lost → handed
 *   back to the queue for another worker, without using up an attempt;
 * - anything else (the project locked by a process started by hand, a run cut off) → an error BullMQ retries.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { DelayedError, type Job, UnrecoverableError, WaitingError } from 'bullmq';
import type { ProviderHooks } from '../../capabilities/model/index.ts';
import { STATE_DIR } from '../../capabilities/repository/index.ts';
import { readRunRecord } from '../../company/index.ts';
import { readAppendLog, withFencedWrites } from '../../ground/files/index.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { SOPWORKS_VERSION } from '../../ground/version.ts';
import { runSpec, runState } from '../eval/index.ts';
import { admitJob, JobRefused, type WorkerLimits } from './job-admission.ts';
import { idleTakeUps, type JobData, JobProgress, type JobResult, MAX_IDLE_TAKE_UPS, projectDirOf } from './job-data.ts';
import { verifyJob } from './job-signature.ts';
import type { HeldLease, RunLeases } from './run-lease.ts';

export interface WorkerContext {
  /** Names this worker in job progress, results and leases: host:pid:tag. */
  id: string;
  /** True once the worker was asked to stop (SIGTERM): an interrupted run is handed back. */
  closing: () => boolean;
  /** A job of another sopworks version was seen: the worker hands it back and stops. */
  onVersionMismatch: (job: Job, submitted: string) => void;
  leases: RunLeases;
  /** When the worker's runs stop: after their steps in flight (its first signal), or at once (its second). */
  stop: { soft: AbortSignal; hard: AbortSignal };
  /** What wraps every run's provider (the shared rate limits); none: the run's own. */
  provider?: ProviderHooks | undefined;
  log: (line: string) => void;
  /** The secret jobs are signed with, and what this worker lets a job do. */
  secret: string;
  limits: WorkerLimits;
}

/** A job this worker will not run: failed at once, never retried, the reason in `sopworks jobs`. */
function refuse(job: Job, reason: string, context: WorkerContext): never {
  context.log(cleanLine(`${job.id}: refused: ${reason}`));
  throw new UnrecoverableError(`refused: ${reason}`);
}

export async function processJob(job: Job, token: string | undefined, context: WorkerContext): Promise<JobResult> {
  // Redis is anyone's to write: nothing of a job is used before its signature is checked.
  const verdict = verifyJob(job.id, job.data, context.secret);
  if (!verdict.ok) refuse(job, verdict.reason, context);
  const data = verdict.data;
  if (data.version !== SOPWORKS_VERSION) {
    // Not this worker's to run: back to the queue, untouched, for a worker of its version.
    await job.moveToWait(token);
    context.onVersionMismatch(job, data.version);
    throw new WaitingError();
  }
  try {
    await admitJob(data, context.limits);
  } catch (error) {
    if (error instanceof JobRefused) refuse(job, error.message, context);
    throw error;
  }
  if (context.closing()) await handBack(job, token);
  const projectDir = projectDirOf(data);
  const lease = await context.leases.take(projectDir);
  if (!('token' in lease)) {
    // A live worker holds the run (BullMQ gave the job out again while its worker was slow to renew).
    const waitMs = lease.leftMs + 1000;
    context.log(`${job.id} ${data.name}: held by ${lease.heldBy}, whose lease is renewed; tried again in ${Math.ceil(waitMs / 1000)} s`);
    await job.moveToDelayed(Date.now() + waitMs, token);
    throw new DelayedError();
  }
  // Every write under the run's folder asks the lease first — also a write of a step still in flight when
  // the run stopped, long after — and what the run started there (git, its sandboxed commands) is killed
  // once the lease is lost or given back: a worker paused past its lease writes nothing when it wakes.
  try {
    return await withFencedWrites(projectDir, lease.check, lease.lost, () => runUnderLease(job, token, data, lease, context));
  } finally {
    await lease.release();
  }
}

async function runUnderLease(job: Job, token: string | undefined, data: JobData, lease: HeldLease, context: WorkerContext): Promise<JobResult> {
  const projectDir = projectDirOf(data);
  const progress = JobProgress.safeParse(job.progress);
  const state = await runState(projectDir);
  if (progress.success && progress.data.folderMade && state.kind === 'absent') {
    throw new UnrecoverableError(
      `the run folder ${projectDir} is missing on ${context.id}, although ${progress.data.worker} made it: workers must share the storage of --out (docs/scaling.md); nothing was run`,
    );
  }
  // This job's run paused earlier (where --until asked, or at its endpoint's limit) and the job was handed out
  // again — its lease lost as the run paused, a stalled check: resuming it would go past its point.
  if (progress.success && progress.data.folderMade && state.kind === 'resumable' && state.outcome === 'paused') return pausedRun(job, projectDir, context);
  if (state.kind === 'absent') await fs.mkdir(projectDir, { recursive: true });
  await countTakeUp(job, projectDir, progress.success ? progress.data : null, context.id);
  context.log(`${job.id} ${data.name}: ${state.kind === 'resumable' ? 'resuming' : state.kind === 'finished' ? 'already finished' : 'starting'} ${projectDir}`);

  const { error, errorCode } = await runSpec(
    {
      name: data.name,
      spec: data.spec,
      scenario: data.scenario,
      out: data.out,
      llm: data.llm ?? undefined,
      model: data.model ?? undefined,
      sops: data.sops,
      roles: data.roles,
      allowUnsandboxed: data.allowUnsandboxed,
      logFile: path.join(data.out, 'logs', `${data.name}.log`),
      chaos: data.chaos ?? null,
      instructions: data.instructions ?? null,
      flags: data.flags ?? null,
    },
    { stop: context.stop, lease, provider: context.provider },
  );
  if (lease.lost.aborted) {
    context.log(`${job.id} ${data.name}: handed back (${String(lease.lost.reason)})`);
    await handBack(job, token);
  }
  const after = await runState(projectDir);
  if (after.kind === 'finished') {
    const record = await readRunRecord(path.join(projectDir, STATE_DIR));
    const result = { outcome: after.outcome, reason: record.reason ?? '', projectDir, worker: context.id };
    context.log(`${job.id} ${data.name}: ${after.outcome}${state.kind === 'finished' ? ' (finished earlier)' : ''}`);
    if (after.outcome === 'done') return result;
    throw new UnrecoverableError(`the run ended ${after.outcome}: ${record.reason ?? ''} (sopworks resume ${projectDir} continues it)`);
  }
  if (after.kind === 'resumable' && after.outcome === 'paused') return pausedRun(job, projectDir, context);
  // Stopped by the worker's shutdown — even before its run record was written: another worker takes it.
  if (context.closing() && error === null) {
    context.log(`${job.id} ${data.name}: handed back (interrupted by the worker's shutdown)`);
    await handBack(job, token);
  }
  if (error !== null && errorCode !== 'PROJECT_BUSY') {
    // It could not start: a bad spec or scenario, a SOP that does not load. A retry changes nothing.
    throw new UnrecoverableError(error.split('\n')[0]!);
  }
  throw new Error(error ?? `the run stopped before its outcome (${after.kind === 'resumable' ? (after.outcome ?? 'cut off') : after.kind}); it is retried`);
}

/**
 * A run that ended paused is never retried: a retry would resume it. Paused where `submit --until` asked,
 * it did what was asked (the job completes); paused at its endpoint's limit without SOPWORKS_WAIT_FOR_QUOTA,
 * the job fails once, saying when the limit resets and how to go on.
 */
async function pausedRun(job: Job, projectDir: string, context: WorkerContext): Promise<JobResult> {
  const record = await readRunRecord(path.join(projectDir, STATE_DIR));
  const reason = record.reason ?? '';
  context.log(cleanLine(`${job.id}: paused: ${reason}`));
  if (!record.resumeAt) return { outcome: 'paused', reason, projectDir, worker: context.id };
  throw new UnrecoverableError(
    `the run paused at its endpoint's limit: ${reason} (after ${record.resumeAt}, sopworks resume ${projectDir} continues it, or submit it again; SOPWORKS_WAIT_FOR_QUOTA=true on the workers waits instead)`,
  );
}

/** Records this take-up of the run; fails the job when the run has not moved on over several in a row. */
async function countTakeUp(job: Job, projectDir: string, before: JobProgress | null, worker: string): Promise<void> {
  const board = (await readAppendLog(path.join(projectDir, STATE_DIR, 'board.jsonl')).catch(() => ({ records: [] }))).records.length;
  const idle = idleTakeUps(before, board);
  if (idle > MAX_IDLE_TAKE_UPS) {
    throw new UnrecoverableError(
      `the run was taken up ${idle + 1} times in a row without moving on (its board stayed at ${board} messages): it stops its workers every time; its log (<out>/logs/) says where`,
    );
  }
  await job.updateProgress({ folderMade: true, worker, board, idleTakeUps: idle } satisfies JobProgress);
}

/**
 * Back to the queue without using up an attempt. When the job's BullMQ lock is gone too (the worker lost
 * Redis for longer than the lock), the job is already another worker's, or will be once the stalled
 * check sees it: nothing more to do here.
 */
async function handBack(job: Job, token: string | undefined): Promise<never> {
  await job.moveToWait(token).catch(() => undefined);
  throw new WaitingError();
}
