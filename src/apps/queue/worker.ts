/**
 * A long-lived worker: takes runs from the queue, several at once, until it is stopped. BullMQ holds a
 * lock on each job it runs and renews it; a worker that dies (kill -9, a lost machine) stops renewing,
 * and another worker's stalled-job check puts the job back on the queue, where the next worker resumes
 * the run from its folder (process-job.ts).
 */
import os from 'node:os';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAME, type JobData, type JobResult } from './job-data.ts';
import { processJob } from './process-job.ts';
import type { WorkerLimits } from './job-admission.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { BULLMQ_CONNECTION } from './run-queue.ts';

export interface WorkerOptions {
  concurrency: number;
  /**
   * How long a job's lock lasts without renewal (BullMQ's lockDuration; renewed at half of it): after a
   * worker dies, its runs wait up to this long, plus one stalled check, before another worker takes them.
   */
  lockMs: number;
  log: (line: string) => void;
  /** The queue's secret (job-signature.ts) and what a job may do here (job-admission.ts). */
  secret: string;
  limits: WorkerLimits;
}

export interface RunningWorker {
  id: string;
  /** Stops taking jobs; runs under way finish or are handed back (their own SIGTERM handling); resolves when all are settled. */
  close(): Promise<void>;
  /** Resolves once the worker closed, whoever closed it. */
  done: Promise<void>;
  /** Set when a job of another sopworks version was met. */
  versionMismatch: () => string | null;
}

/** A stalled job is taken over at most this many times before it fails (a run that kills its worker every time). */
const MAX_STALLED = 3;

export function startWorker(connection: Redis, options: WorkerOptions): RunningWorker {
  const id = `${os.hostname()}:${process.pid}`;
  let closing = false;
  let mismatch: string | null = null;
  let closed: Promise<void> | null = null;
  let settle: () => void = () => {};
  const done = new Promise<void>((resolve) => (settle = resolve));
  const worker: Worker<JobData, JobResult> = new Worker<JobData, JobResult>(
    QUEUE_NAME,
    (job, token) =>
      processJob(job, token, {
        id,
        closing: () => closing,
        log: options.log,
        secret: options.secret,
        limits: options.limits,
        onVersionMismatch: (j, submitted) => {
          mismatch ??= `job ${j.id} was submitted with sopworks ${submitted}; this worker runs another version. The job was handed back to the queue, untouched; start a worker of version ${submitted} to run it.`;
          void close();
        },
      }),
    {
      connection,
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      maxStalledCount: MAX_STALLED,
      ...BULLMQ_CONNECTION,
    },
  );
  worker.on('failed', (job, error) => {
    // A refused job's data is anyone's text: the line is one clean line.
    if (job)
      options.log(
        cleanLine(`${job.id} ${String((job.data as { name?: unknown } | null)?.name ?? '?')}: failed (attempt ${job.attemptsMade}): ${error.message}`),
      );
  });
  worker.on('error', (error) => options.log(cleanLine(`queue error: ${error.message}`)));
  const close = (): Promise<void> => {
    closing = true;
    closed ??= worker.close().then(settle);
    return closed;
  };
  return { id, close, done, versionMismatch: () => mismatch };
}
