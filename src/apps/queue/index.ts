/** apps/queue: its public face — what other folders may use of it. */
export {
  type JobData,
  type JobFields,
  JobProgress,
  type JobResult,
  jobIdFor,
  MAX_JOB_INSTRUCTIONS,
  QUEUE_NAME,
  type QueuedRunFlags,
} from './job-data.ts';
export { QUEUE_SECRET_ENV, queueSecret, signJob, verifyJob } from './job-signature.ts';
export { queueRunner } from './queue-runner.ts';
export { rateLimitSettings, requestWindow, SharedRateLimits } from './rate-limits.ts';
export { connectRedis, queueErrorLine, redisUrl, redisWaitMs, shownUrl } from './redis-connection.ts';
export { HeldLease, leaseKey, RunLeases } from './run-lease.ts';
export { openQueue } from './run-queue.ts';
export { submitRun } from './submit-run.ts';
export { startWorker } from './worker.ts';
export { resolveWorkerLimits } from './worker-limits.ts';
export { rateLimitKey, workerRateLimits } from './worker-rate-limits.ts';
