/**
 * Puts a run on the queue: one job per project folder. A job of the same folder still waiting or
 * running is that run already (it is returned, not doubled); a finished or failed one is replaced,
 * so a run can be submitted again once it stopped.
 */
import type { Job } from 'bullmq';
import { SOPWORKS_VERSION } from '../../ground/version.ts';
import { jobIdFor, type JobData, type JobResult } from './job-data.ts';
import type { RunQueue } from './run-queue.ts';

export type RunToSubmit = Omit<JobData, 'version' | 'submittedAt'>;

export async function submitRun(queue: RunQueue, run: RunToSubmit): Promise<{ job: Job<JobData, JobResult>; existing: boolean }> {
  const id = jobIdFor(run);
  const earlier = await queue.getJob(id);
  if (earlier) {
    const state = await earlier.getState();
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return { job: earlier, existing: true };
    await earlier.remove();
  }
  const data: JobData = { ...run, version: SOPWORKS_VERSION, submittedAt: new Date().toISOString() };
  return { job: await queue.add(run.name, data, { jobId: id }), existing: false };
}
