/**
 * `sopworks jobs`: the runs on the job queue — queued, running, finished and failed. A job is read as
 * anyone may have written it: a field that is not what a sopworks job holds is shown as such, and with
 * SOPWORKS_QUEUE_SECRET set, a queued job a worker would refuse (unsigned, or changed since it was
 * signed) says so.
 */
import path from 'node:path';
import type { Job } from 'bullmq';
import { z } from 'zod';
import { cleanStrings } from '../../ground/terminal-text.ts';
import { parseRequest, wholeNumberIn } from '../../session/index.ts';
import { renderText } from '../eval/index.ts';
import {
  connectRedis,
  type JobData,
  JobProgress,
  type JobResult,
  openQueue,
  QUEUE_SECRET_ENV,
  queueErrorLine,
  redisUrl,
  shownUrl,
  verifyJob,
} from '../queue/index.ts';
import { EXIT, type Output } from './output.ts';

const JobsOptions = z.object({ limit: wholeNumberIn(1, 10_000), json: z.boolean().default(false) });

/** BullMQ's states, in the words `jobs` shows. */
const SHOWN = {
  waiting: 'queued',
  prioritized: 'queued',
  delayed: 'queued',
  'waiting-children': 'queued',
  active: 'running',
  completed: 'finished',
  failed: 'failed',
} as const;
type BullState = keyof typeof SHOWN;
const STATES = Object.keys(SHOWN) as BullState[];

export async function jobsCommand(rawOptions: unknown, io: Output): Promise<number> {
  const options = parseRequest(JobsOptions, rawOptions, 'jobs');
  const secret = process.env[QUEUE_SECRET_ENV]?.trim() || null;
  const url = redisUrl();
  const redis = await connectRedis(url, { notice: (line) => io.err(line) });
  const queue = openQueue(redis, (error) => io.err(queueErrorLine(error)));
  try {
    const counts = await queue.getJobCounts(...STATES);
    const rows: { id: string; name: string; state: string; attempts: number; worker: string; project: string; detail: string }[] = [];
    for (const state of STATES) {
      const jobs: Job<JobData, JobResult>[] = await queue.getJobs([state], 0, (options.limit ?? 200) - 1);
      for (const job of jobs) {
        if (!job) continue;
        const progress = JobProgress.safeParse(job.progress);
        const data = job.data as Partial<Record<string, unknown>> | null;
        const text = (value: unknown) => (typeof value === 'string' ? value : '?');
        const verdict = secret === null || state === 'failed' || state === 'completed' ? null : verifyJob(job.id, job.data, secret);
        rows.push({
          id: job.id ?? '?',
          name: text(data?.name),
          state: SHOWN[state],
          attempts: job.attemptsMade,
          worker: text(job.returnvalue?.worker ?? (progress.success ? progress.data.worker : '-')),
          project: typeof data?.out === 'string' && typeof data.name === 'string' ? path.join(data.out, data.name) : '(not a sopworks job)',
          detail:
            verdict && !verdict.ok
              ? `a worker will refuse it: ${verdict.reason}`
              : state === 'failed'
                ? text(job.failedReason ?? '')
                : state === 'completed'
                  ? text(job.returnvalue?.outcome ?? '')
                  : state === 'delayed'
                    ? 'retry after a pause'
                    : '',
        });
      }
    }
    const total = (shown: string) => STATES.filter((s) => SHOWN[s] === shown).reduce((sum, s) => sum + (counts[s] ?? 0), 0);
    const summary = { queued: total('queued'), running: total('running'), finished: total('finished'), failed: total('failed') };
    if (options.json) {
      // Everything of a job was read from Redis, anyone's to write: every string one clean line, in JSON too.
      io.out(JSON.stringify({ redis: shownUrl(url), ...summary, jobs: cleanStrings(rows) }, null, 2));
      return EXIT.done;
    }
    io.out(`Queue at ${shownUrl(url)}: ${summary.queued} queued, ${summary.running} running, ${summary.finished} finished, ${summary.failed} failed`);
    if (rows.length > 0) {
      io.out('');
      io.out(
        renderText({
          header: ['job', 'state', 'attempts', 'worker', 'project', 'outcome / reason'],
          rows: rows.map((r) => [r.id, r.state, String(r.attempts), r.worker, r.project, r.detail]),
        }),
      );
    }
    return EXIT.done;
  } finally {
    await queue.close();
    await redis.quit().catch(() => {});
  }
}
