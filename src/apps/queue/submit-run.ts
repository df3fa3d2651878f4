/**
 * Puts a run on the queue: one job per project folder, signed with the queue's secret
 * (job-signature.ts). A job of the same folder still waiting or running is that run already (it is
 * returned, not doubled); a finished or failed one is replaced, so a run can be submitted again once
 * it stopped.
 */
import type { Job } from 'bullmq';
import { SOPWORKS_VERSION } from '../../ground/version.ts';
import { type JobData, type JobFields, type JobResult, jobIdFor } from './job-data.ts';
import { signJob } from './job-signature.ts';
import type { RunQueue } from './run-queue.ts';

export type RunToSubmit = Omit<JobFields, 'version' | 'submittedAt'>;

export async function submitRun(queue: RunQueue, run: RunToSubmit, secret: string): Promise<{ job: Job<JobData, JobResult>; existing: boolean }> {
  const id = jobIdFor(run);
  const earlier = await queue.getJob(id);
  if (earlier) {
    const state = await earlier.getState();
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return { job: earlier, existing: true };
    await earlier.remove();
  }
  const fields: JobFields = { ...run, version: SOPWORKS_VERSION, submittedAt: new Date().toISOString() };
  const data: JobData = { ...fields, signature: signJob(id, fields, secret) };
  return { job: await queue.add(run.name, data, { jobId: id }), existing: false };
}
