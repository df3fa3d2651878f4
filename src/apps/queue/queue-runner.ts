/**
 * `eval --queue`: each spec's run goes to the queue and the eval waits for a worker to finish it; the
 * run folders are on the storage the eval and the workers share, so the eval measures them as its own.
 * Every spec is queued at once: the workers' concurrency is the limit.
 */
import { describeError } from '../../ground/errors.ts';
import type { Lines as Output } from '../eval/run-commands.ts';
import type { SpecRunner } from '../eval/run-suite.ts';
import { connectRedis, redisUrl, shownUrl } from './redis-connection.ts';
import { openQueue, openQueueEvents } from './run-queue.ts';
import { submitRun } from './submit-run.ts';

export async function queueRunner(io: Output, stop: AbortSignal): Promise<{ runner: SpecRunner; close: () => Promise<void> }> {
  const url = redisUrl();
  const redis = await connectRedis(url);
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
      chaos: request.chaos ?? null,
    });
    const stopped = new Promise<never>((_, reject) => {
      const abort = () => reject(new Error('the eval stopped waiting; the job stays on the queue, and the same eval waits for it again'));
      if (stop.aborted) abort();
      else stop.addEventListener('abort', abort, { once: true });
    });
    try {
      await Promise.race([job.waitUntilFinished(events), stopped]);
      return { error: null };
    } catch (error) {
      return { error: `job ${job.id}: ${describeError(error)}` };
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
