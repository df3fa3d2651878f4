/**
 * `eval --queue`: each spec's run goes to the queue and the eval waits for a worker to finish it; the
 * run folders are on the storage the eval and the workers share, so the eval measures them as its own.
 * Every spec is queued at once: the workers' concurrency is the limit.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describeError } from '../../ground/errors.ts';
import type { Lines as Output } from '../eval/run-commands.ts';
import type { SpecRunner } from '../eval/run-suite.ts';
import { connectRedis, redisUrl, redisWaitMs, shownUrl } from './redis-connection.ts';
import { openQueue, openQueueEvents, type RunQueue } from './run-queue.ts';
import { submitRun } from './submit-run.ts';

const STATE_POLL_MS = 3000;

export async function queueRunner(io: Output, stop: AbortSignal): Promise<{ runner: SpecRunner; close: () => Promise<void> }> {
  const url = redisUrl();
  const redis = await connectRedis(url, { waitMs: redisWaitMs(), onWaiting: (line) => io.out(line), stop });
  const queue = openQueue(redis);
  const events = openQueueEvents(redis);
  await events.waitUntilReady();
  io.out(`Runs go to the queue at ${shownUrl(url)}; start workers with \`sopworks worker\` (docs/scaling.md).`);
  const runner: SpecRunner = async (request) => {
    const { job } = await submitRun(queue, {
      name: request.name,
      spec: request.spec,
      scenario: request.scenario,
      out: request.out,
      llm: request.llm ?? null,
      model: request.model ?? null,
      sops: request.sops,
      roles: request.roles,
      allowUnsandboxed: request.allowUnsandboxed,
    });
    const stopped = new Promise<never>((_, reject) => {
      const abort = () => reject(new Error('the eval stopped waiting; the job stays on the queue, and the same eval waits for it again'));
      if (stop.aborted) abort();
      else stop.addEventListener('abort', abort, { once: true });
    });
    const waited = new AbortController();
    try {
      await Promise.race([job.waitUntilFinished(events), finishedByState(queue, job.id!, AbortSignal.any([stop, waited.signal])), stopped]);
      return { error: null };
    } catch (error) {
      return { error: `job ${job.id}: ${describeError(error)}` };
    } finally {
      waited.abort();
    }
  };
  return {
    runner,
    close: async () => {
      await events.close();
      await queue.close();
      await redis.quit().catch(() => {});
    },
  };
}

/**
 * The job's end read from its state every few seconds — besides the event stream, whose events a Redis
 * restarted without persistence forgets: the eval never waits on an event that will not come.
 */
async function finishedByState(queue: RunQueue, id: string, stop: AbortSignal): Promise<void> {
  for (;;) {
    await sleep(STATE_POLL_MS, undefined, { signal: stop, ref: false }).catch(() => undefined);
    if (stop.aborted) return new Promise<void>(() => {});
    const job = await queue.getJob(id).catch(() => undefined);
    if (job === undefined) continue;
    if (job === null)
      throw new Error('the job is gone from the queue (Redis lost it: docs/scaling.md, "Redis persistence"); run the eval again to resubmit it');
    const state = await job.getState().catch(() => 'unknown');
    if (state === 'completed') return;
    if (state === 'failed') throw new Error(job.failedReason);
  }
}
