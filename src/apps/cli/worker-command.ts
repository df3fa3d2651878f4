/**
 * `sopworks worker`: a long-lived process that runs queued runs, several at once, until SIGTERM or
 * Ctrl-C — then it takes no new job, and the runs under way stop after their steps in flight and are
 * handed back to the queue for another worker (a second signal stops them at once). It runs only jobs
 * signed with SOPWORKS_QUEUE_SECRET, within its own limits (--runs-root, --company-root, …).
 * docs/scaling.md.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { queueSecret } from '../queue/job-signature.ts';
import { resolveWorkerLimits } from '../queue/worker-limits.ts';
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
  runsRoot: z.array(z.string().min(1)).default([]),
  companyRoot: z.array(z.string().min(1)).default([]),
  allowUnsandboxed: z.boolean().default(false),
  allowBaseUrl: z.array(z.string()).default([]),
  allowModel: z.array(z.string().min(1)).default([]),
});

/** The package's folder (its sops/, roles/, examples/): a worker's company root unless told others. */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export async function workerCommand(rawOptions: unknown, io: Output): Promise<number> {
  const options = parseOptions(WorkerOptions, rawOptions);
  await handRunCommandsDown();
  const url = redisUrl();
  const secret = queueSecret();
  const settings = readSettings();
  const rates = rateLimitSettings();
  const jobLimits = await resolveWorkerLimits({
    runsRoots: options.runsRoot.length > 0 ? options.runsRoot : ['output'],
    companyRoots: options.companyRoot.length > 0 ? options.companyRoot : [PACKAGE_ROOT],
    allowUnsandboxed: options.allowUnsandboxed,
    allowBaseUrls: options.allowBaseUrl,
    allowModels: options.allowModel,
    ownBaseUrl: settings.model.baseUrl ?? null,
  });
  const redis = await connectRedis(url, (line) => io.err(line));
  const limits = installWorkerRateLimits(redis, settings, rates);
  const concurrency = options.concurrency ?? 2;
  const worker = startWorker(redis, { concurrency, lockMs: options.lockMs ?? 30_000, log: (line) => io.out(line), secret, limits: jobLimits });
  io.out(
    `Worker ${worker.id} (sopworks ${SOPWORKS_VERSION}): up to ${concurrency} runs at once from ${shownUrl(url)}. SIGTERM or Ctrl-C hands the runs under way back.`,
  );
  io.out(
    `Signed jobs only; runs under ${jobLimits.runsRoots.join(', ')}; companies and scenarios from ${jobLimits.companyRoots.join(', ')}; endpoints ${jobLimits.baseUrls.join(', ')}${jobLimits.models ? `; models ${jobLimits.models.join(', ')}` : ''}${jobLimits.allowUnsandboxed ? '; unsandboxed runs allowed' : ''}.`,
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
  io.out('Worker stopped.');
  return EXIT.done;
}
