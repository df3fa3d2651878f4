/** The BullMQ queue of runs on a checked Redis connection, with the job options every run gets. */
import { type JobsOptions, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { type JobData, type JobResult, QUEUE_NAME } from './job-data.ts';

/**
 * A run that failed for a reason a retry may fix (a model endpoint down, a project another process
 * still holds) is retried a few times with a growing pause; one a retry cannot fix fails at once
 * (process-job.ts throws UnrecoverableError). Finished jobs are kept for `sopworks jobs`.
 */
export const JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { count: 10_000 },
  removeOnFail: { count: 10_000 },
};

export type RunQueue = Queue<JobData, JobResult>;

/**
 * Options every BullMQ object of the queue gets: the server was checked by connectRedis, and BullMQ's
 * own check would print what it finds straight to the console (redis-server-check.ts).
 */
export const BULLMQ_CONNECTION = { skipVersionCheck: true } as const;

/**
 * An error a BullMQ object emits (a dropped connection) goes to `onError`: with no listener BullMQ
 * prints it to the console itself. The command's own calls fail with the cause meanwhile.
 */
export function openQueue(connection: Redis, onError: (error: Error) => void = () => {}): RunQueue {
  const queue = new Queue<JobData, JobResult>(QUEUE_NAME, { connection, defaultJobOptions: JOB_OPTIONS, ...BULLMQ_CONNECTION });
  queue.on('error', onError);
  return queue;
}

export function openQueueEvents(connection: Redis, onError: (error: Error) => void = () => {}): QueueEvents {
  const events = new QueueEvents(QUEUE_NAME, { connection: connection.duplicate(), ...BULLMQ_CONNECTION });
  events.on('error', onError);
  return events;
}
