/** The BullMQ queue of runs on a checked Redis connection, with the job options every run gets. */
import { Queue, QueueEvents, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAME, type JobData, type JobResult } from './job-data.ts';

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

export function openQueue(connection: Redis): RunQueue {
  return new Queue<JobData, JobResult>(QUEUE_NAME, { connection, defaultJobOptions: JOB_OPTIONS });
}

export function openQueueEvents(connection: Redis): QueueEvents {
  return new QueueEvents(QUEUE_NAME, { connection: connection.duplicate() });
}
