/**
 * A long-lived worker: takes runs from the queue, several at once, until it is stopped. BullMQ holds a
 * lock on each job it runs and renews it; a worker that dies (kill -9, a lost machine) stops renewing,
 * and another worker's stalled-job check puts the job back on the queue, where the next worker resumes
 * the run from its folder (process-job.ts). Who may work on a run folder is the run's own lease
 * (run-lease.ts), with the same time to live as the job's lock. After every reconnection to Redis a fresh
 * BullMQ worker takes the jobs (see replaceAfterReconnection): BullMQ's own can wait for ever on a fetch
 * that was on the line when Redis went.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Processor, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ProviderHooks } from '../../capabilities/model/index.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import type { WorkerLimits } from './job-admission.ts';
import { type JobData, type JobResult, QUEUE_NAME } from './job-data.ts';
import { processJob, type WorkerContext } from './process-job.ts';
import { RunLeases } from './run-lease.ts';
import { BULLMQ_CONNECTION } from './run-queue.ts';

export interface WorkerOptions {
  concurrency: number;
  /**
   * How long a job's lock and its run's lease last without renewal (BullMQ's lockDuration, renewed at half
   * of it; the lease is renewed every third): after a worker dies, its runs wait up to this long, plus one
   * stalled check, before another worker takes them.
   */
  lockMs: number;
  log: (line: string) => void;
  /** The queue's secret (job-signature.ts) and what a job may do here (job-admission.ts). */
  secret: string;
  limits: WorkerLimits;
  /** What wraps every run's provider, and hears its retries: the shared rate limits (worker-rate-limits.ts). */
  provider?: ProviderHooks;
}

export interface RunningWorker {
  id: string;
  /** Stops taking jobs; runs under way finish, or are handed back once stopped (`stopRuns`); resolves when all are settled. */
  close(): Promise<void>;
  /** Stops the runs under way: after their steps in flight, or at once (`now`); each is handed back to the queue. */
  stopRuns(now: boolean): void;
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
  const runs = new Set<Promise<unknown>>();
  const soft = new AbortController();
  const hard = new AbortController();
  const context: WorkerContext = {
    id,
    closing: () => closing,
    stop: { soft: soft.signal, hard: hard.signal },
    provider: options.provider,
    leases,
    log: options.log,
    secret: options.secret,
    limits: options.limits,
    onVersionMismatch: (j, submitted) => {
      mismatch ??= `job ${j.id} was submitted with sopworks ${submitted}; this worker runs another version. The job was handed back to the queue, untouched; start a worker of version ${submitted} to run it.`;
      void close();
    },
  };
  const processor: Processor<JobData, JobResult> = (job, token) => {
    const run = processJob(job, token, context);
    runs.add(run);
    void run.catch(() => undefined).finally(() => runs.delete(run));
    return run;
  };
  // While Redis is away every reconnection attempt fails the same way: said once, not every second.
  let lastError = '';
  const onError = (error: Error) => {
    if (error.message !== lastError) options.log(cleanLine(`queue error: ${error.message}`));
    lastError = error.message;
  };
  const retired: Worker<JobData, JobResult>[] = [];
  let current = takeJobs(connection, processor, options, onError);
  // The connections made here, one per reconnection: BullMQ never closes a connection it was given, and
  // one left open keeps the process alive after it said it stopped.
  const own: Redis[] = [];
  // When Redis comes back, the fetch of the next job that was on the line as it went can be re-sent by
  // ioredis and never settle: BullMQ's loop then waits on it and takes no job again. So after every
  // reconnection a fresh BullMQ worker, on a connection of its own, takes the jobs; the one before takes
  // none and finishes the runs it holds (their locks are still renewed on its connection).
  const replaceAfterReconnection = (worker: Worker<JobData, JobResult>, on: Redis) => {
    let lost = false;
    on.on('close', () => (lost = true));
    on.on('ready', () => {
      if (!lost || closing || worker !== current) return;
      retired.push(worker);
      // Once it closed, a connection of its own is let go (the first is the process's, shared with the leases).
      void worker
        .close()
        .then(() => on !== connection && on.disconnect())
        .catch(() => undefined);
      const fresh = connection.duplicate();
      fresh.on('error', () => {});
      own.push(fresh);
      current = takeJobs(fresh, processor, options, onError);
      replaceAfterReconnection(current, fresh);
    });
  };
  replaceAfterReconnection(current, connection);
  const close = (): Promise<void> => {
    closing = true;
    closed ??= (async () => {
      // A retired worker's loop may wait for ever on its lost fetch: its close is awaited only as long as runs are under way.
      const finishing = retired.map((w) => Promise.race([w.close(), Promise.all(runs).then(() => sleep(2000))]));
      await Promise.all([current.close(), ...finishing]);
      // Also those of retired workers whose close still waits on a fetch lost with the connection.
      for (const made of own) made.disconnect();
      settle();
    })();
    return closed;
  };
  const stopRuns = (now: boolean) => (now ? hard : soft).abort();
  return { id, close, stopRuns, done, versionMismatch: () => mismatch };
}

/** A BullMQ worker that takes runs from the queue with the worker's settings. */
function takeJobs(
  connection: Redis,
  processor: Processor<JobData, JobResult>,
  options: WorkerOptions,
  onError: (error: Error) => void,
): Worker<JobData, JobResult> {
  const worker = new Worker<JobData, JobResult>(QUEUE_NAME, processor, {
    connection,
    concurrency: options.concurrency,
    lockDuration: options.lockMs,
    stalledInterval: options.lockMs,
    maxStalledCount: MAX_STALLED,
    ...BULLMQ_CONNECTION,
  });
  worker.on('failed', (job, error) => {
    // A refused job's data is anyone's text: the line is one clean line.
    if (job)
      options.log(
        cleanLine(`${job.id} ${String((job.data as { name?: unknown } | null)?.name ?? '?')}: failed (attempt ${job.attemptsMade}): ${error.message}`),
      );
  });
  worker.on('error', onError);
  return worker;
}
