/**
 * `sopworks worker`: a long-lived process that runs queued runs, several at once, until SIGTERM or
 * Ctrl-C — then it takes no new job, and the runs under way stop after their steps in flight and are
 * handed back to the queue for another worker (a second signal stops them at once). docs/scaling.md.
 */
import { z } from 'zod';
import { connectRedis, redisUrl, shownUrl } from '../queue/redis-connection.ts';
import { startWorker } from '../queue/worker.ts';
import { handRunCommandsDown } from './run-commands.ts';
import { rateLimitSettings } from '../queue/rate-limits.ts';
import { installWorkerRateLimits, rateLimitKey } from '../queue/worker-rate-limits.ts';
import { readSettings } from '../../capabilities/model/settings.ts';
import { SOPWORKS_VERSION } from '../../ground/version.ts';
import { EXIT, type Output } from './output.ts';
import { requestProcessStop } from './stop-signals.ts';
import { parseOptions, wholeNumberIn } from './parse-options.ts';

const WorkerOptions = z.object({
  concurrency: wholeNumberIn(1, 64),
  lockMs: wholeNumberIn(1000, 600_000),
});

export async function workerCommand(rawOptions: unknown, io: Output): Promise<number> {
  const options = parseOptions(WorkerOptions, rawOptions);
  await handRunCommandsDown();
  const url = redisUrl();
  const settings = readSettings();
  const rates = rateLimitSettings();
  const redis = await connectRedis(url);
  const limits = installWorkerRateLimits(redis, settings, rates);
  const concurrency = options.concurrency ?? 2;
  const worker = startWorker(redis, { concurrency, lockMs: options.lockMs ?? 30_000, log: (line) => io.out(line) });
  io.out(
    `Worker ${worker.id} (sopworks ${SOPWORKS_VERSION}): up to ${concurrency} runs at once from ${shownUrl(url)}. SIGTERM or Ctrl-C hands the runs under way back.`,
  );
  if (limits)
    io.out(
      `Shared rate limits of ${rateLimitKey(settings)}: ${limits.limits.settings.rpm ?? 'no'} requests and ${limits.limits.settings.tpm ?? 'no'} tokens per minute, across all workers.`,
    );
  const stop = () => {
    io.out('Stopping: no new job; the runs under way stop after their steps in flight and go back to the queue (again to stop at once).');
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    requestProcessStop();
    void worker.close();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Closed by a signal, or from inside on a job of another version.
  await worker.done;
  process.off('SIGTERM', stop);
  process.off('SIGINT', stop);
  await redis.quit().catch(() => {});
  const mismatch = worker.versionMismatch();
  if (mismatch) {
    io.err(`error ${mismatch}`);
    return EXIT.usage;
  }
  io.out(
    limits
      ? `Worker stopped; it waited ${limits.limits.waits} times (${(limits.limits.waitedMs / 1000).toFixed(1)} s in all) for the shared rate limits.`
      : 'Worker stopped.',
  );
  return EXIT.done;
}
