/**
 * A long-lived worker: takes runs from the queue, several at once, until it is stopped. BullMQ holds a
 * lock on each job it runs and renews it; a worker that dies (kill -9, a lost machine) stops renewing,
 * and another worker's stalled-job check puts the job back on the queue, where the next worker resumes
 * the run from its folder (process-job.ts). Who may work on a run folder is the run's own lease
 * (run-lease.ts), with the same time to live as the job's lock.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAME, type JobData, type JobResult } from './job-data.ts';
import { processJob } from './process-job.ts';
import { RunLeases } from './run-lease.ts';

export interface WorkerOptions {
  concurrency: number;
  /**
   * How long a job's lock and its run's lease last without renewal (BullMQ's lockDuration, renewed at half
   * of it; the lease is renewed every third): after a worker dies, its runs wait up to this long, plus one
   * stalled check, before another worker takes them.
   */
  lockMs: number;
  log: (line: string) => void;
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

/**
 * BullMQ's own count of a job's stalls counts every worker lost, whatever the run did meanwhile: a run
 * that kills its worker every time is caught by process-job.ts, which sees whether the run moved on
 * between take-ups (MAX_IDLE_TAKE_UPS). This only bounds a job BullMQ hands out endlessly.
 */
const MAX_STALLED = 100;

export function startWorker(connection: Redis, options: WorkerOptions): RunningWorker {
  // A pid alone repeats across machines and PID namespaces (each container's first process is 1).
  const id = `${os.hostname()}:${process.pid}:${randomBytes(2).toString('hex')}`;
  const leases = new RunLeases(connection, id, options.lockMs);
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
        leases,
        log: options.log,
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
    },
  );
  worker.on('failed', (job, error) => {
    if (job) options.log(`${job.id} ${job.data.name}: failed (attempt ${job.attemptsMade}): ${error.message}`);
  });
  // While Redis is away every reconnection attempt fails the same way: said once, not every second.
  let lastError = '';
  worker.on('error', (error) => {
    if (error.message !== lastError) options.log(`queue error: ${error.message}`);
    lastError = error.message;
  });
  const close = (): Promise<void> => {
    closing = true;
    closed ??= worker.close().then(settle);
    return closed;
  };
  return { id, close, done, versionMismatch: () => mismatch };
}
