/**
 * `eval --queue`: each spec's run goes to the queue and the eval waits for a worker to finish it; the
 * run folders are on the storage the eval and the workers share, so the eval measures them as its own.
 * Every spec is queued at once: the workers' concurrency is the limit.
 */

import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeError, SopworksError } from '../../ground/errors.ts';
import type { Lines as Output } from '../../session/index.ts';
import type { SpecRunner } from '../eval/index.ts';
import { queueSecret } from './job-signature.ts';
import { connectRedis, queueErrorLine, redisUrl, redisWaitMs, shownUrl } from './redis-connection.ts';
import { openQueue, openQueueEvents, type RunQueue } from './run-queue.ts';
import { submitRun } from './submit-run.ts';

/** A queued run asks the workers' own endpoint or a scenario file (a path a worker checks against its roots); nothing else. */
function queuedModel(scenario: string | null, llm: string | undefined): { scenario: string | null; llm: 'openai' | null } {
  if (scenario !== null) return { scenario, llm: null };
  const scripted = /^scripted:(.+)$/.exec(llm ?? '');
  if (scripted) return { scenario: path.resolve(scripted[1]!), llm: null };
  if (llm === undefined || llm === 'openai') return { scenario: null, llm: 'openai' };
  throw new SopworksError('USAGE', `--llm ${llm} cannot go through the queue: a worker asks its own endpoint (openai) or a scenario file.`, {
    hint: "Use --llm openai (the workers' OPENAI_* settings) or --llm scripted:<file>, or run the suite without --queue.",
  });
}

const STATE_POLL_MS = 3000;

export async function queueRunner(io: Output, stop: AbortSignal): Promise<{ runner: SpecRunner; close: () => Promise<void> }> {
  const url = redisUrl();
  const secret = queueSecret();
  const redis = await connectRedis(url, { waitMs: redisWaitMs(), onWaiting: (line) => io.out(line), notice: (line) => io.err(line), stop });
  const queue = openQueue(redis, (error) => io.err(queueErrorLine(error)));
  const events = openQueueEvents(redis, (error) => io.err(queueErrorLine(error)));
  await events.waitUntilReady();
  io.out(`Runs go to the queue at ${shownUrl(url)}; start workers with \`sopworks worker\` (docs/scaling.md).`);
  const runner: SpecRunner = async (request) => {
    const { scenario, llm } = queuedModel(request.scenario, request.llm);
    const { job } = await submitRun(
      queue,
      {
        name: request.name,
        spec: request.spec,
        scenario,
        out: request.out,
        llm,
        model: request.model ?? null,
        sops: request.sops,
        roles: request.roles,
        allowUnsandboxed: request.allowUnsandboxed,
        chaos: request.chaos ?? null,
      },
      secret,
    );
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
