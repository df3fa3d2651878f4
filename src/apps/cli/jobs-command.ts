/** `sopworks jobs`: the runs on the job queue — queued, running, finished and failed. */
import { z } from 'zod';
import type { Job } from 'bullmq';
import { connectRedis, redisUrl, shownUrl } from '../queue/redis-connection.ts';
import { openQueue } from '../queue/run-queue.ts';
import { JobProgress, projectDirOf, type JobData, type JobResult } from '../queue/job-data.ts';
import { renderText } from '../eval/render-table.ts';
import { cleanStrings } from '../../ground/terminal-text.ts';
import { EXIT, type Output } from './output.ts';
import { parseOptions, wholeNumberIn } from './parse-options.ts';

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
  const options = parseOptions(JobsOptions, rawOptions);
  const url = redisUrl();
  const redis = await connectRedis(url);
  const queue = openQueue(redis);
  try {
    const counts = await queue.getJobCounts(...STATES);
    const rows: { id: string; name: string; state: string; attempts: number; worker: string; project: string; detail: string }[] = [];
    for (const state of STATES) {
      const jobs: Job<JobData, JobResult>[] = await queue.getJobs([state], 0, (options.limit ?? 200) - 1);
      for (const job of jobs) {
        if (!job) continue;
        const progress = JobProgress.safeParse(job.progress);
        rows.push({
          id: job.id ?? '?',
          name: job.data.name,
          state: SHOWN[state],
          attempts: job.attemptsMade,
          worker: job.returnvalue?.worker ?? (progress.success ? progress.data.worker : '-'),
          project: projectDirOf(job.data),
          detail:
            state === 'failed'
              ? (job.failedReason ?? '')
              : state === 'completed'
                ? (job.returnvalue?.outcome ?? '')
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
