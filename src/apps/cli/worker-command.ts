/**
 * `sopworks worker`: a long-lived process that runs queued runs, several at once, until SIGTERM or
 * Ctrl-C — then it takes no new job, and the runs under way stop after their steps in flight and are
 * handed back to the queue for another worker (a second signal stops them at once). It runs only jobs
 * signed with SOPWORKS_QUEUE_SECRET, within its own limits (--runs-root, --company-root, …). A Redis it
 * cannot reach is waited for, at start-up as later: a restart of Redis is ordinary (docs/scaling.md).
 */

import type { Redis } from 'ioredis';
import { z } from 'zod';
import { type ProviderHooks, readSettings } from '../../capabilities/model/index.ts';
import { PACKAGE_ROOT } from '../../ground/package-root.ts';
import { SOPWORKS_VERSION } from '../../ground/version.ts';
import { parseRequest, wholeNumberIn } from '../../session/index.ts';
import {
  connectRedis,
  queueSecret,
  rateLimitKey,
  rateLimitSettings,
  redisUrl,
  resolveWorkerLimits,
  shownUrl,
  startWorker,
  workerRateLimits,
} from '../queue/index.ts';
import { EXIT, type Output } from './output.ts';

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

/**
 * `inner`: what wraps every run's provider inside the shared rate limits, and hears its retries (the
 * scale benchmark's rate-limited endpoint, bench/scale-worker.ts).
 */
export async function workerCommand(rawOptions: unknown, io: Output, inner: ProviderHooks = {}): Promise<number> {
  const options = parseRequest(WorkerOptions, rawOptions, 'worker');
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
  const concurrency = options.concurrency ?? 2;
  const lockMs = options.lockMs ?? 30_000;
  // A signal while Redis is still being waited for ends the wait; later, it stops the worker.
  const stopping = new AbortController();
  let onSignal = () => stopping.abort();
  const signal = () => onSignal();
  process.on('SIGTERM', signal);
  process.on('SIGINT', signal);
  try {
    const redis = await connectRedis(url, {
      waitMs: null,
      onWaiting: (line) => io.out(line),
      notice: (line) => io.err(line),
      stop: stopping.signal,
    }).catch((error: unknown) => {
      if (stopping.signal.aborted) return null;
      throw error;
    });
    if (!redis) {
      io.out('Stopped before Redis could be reached; nothing was run.');
      return EXIT.done;
    }
    const limits = workerRateLimits(redis, settings, rates);
    const provider = withinLimits(inner, limits?.provider ?? {});
    const worker = startWorker(redis, { concurrency, lockMs, log: (line) => io.out(line), secret, limits: jobLimits, provider });
    const quiet = reportConnection(redis, url, lockMs, io);
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
    onSignal = () => {
      io.out('Stopping: no new job; the runs under way stop after their steps in flight and go back to the queue (again to stop at once).');
      worker.stopRuns(false);
      void worker.close();
      onSignal = () => worker.stopRuns(true);
    };
    if (stopping.signal.aborted) onSignal();
    // Closed by a signal, or from inside on a job of another version.
    await worker.done;
    quiet();
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
  } finally {
    process.off('SIGTERM', signal);
    process.off('SIGINT', signal);
  }
}

/** `inner`'s wrapper inside `outer`'s, and both told of every retry. */
function withinLimits(inner: ProviderHooks, outer: ProviderHooks): ProviderHooks {
  return {
    wrap: (provider) => {
      const within = inner.wrap ? inner.wrap(provider) : provider;
      return outer.wrap ? outer.wrap(within) : within;
    },
    onRetry: (call, event) => {
      inner.onRetry?.(call, event);
      outer.onRetry?.(call, event);
    },
    onQuotaWait: (call, wait) => {
      inner.onQuotaWait?.(call, wait);
      outer.onQuotaWait?.(call, wait);
    },
  };
}

/** One line when the connection to Redis is lost, one when it is back: not one per reconnection attempt. */
function reportConnection(redis: Redis, url: string, lockMs: number, io: Output): () => void {
  let lostAt: number | null = null;
  let quiet = false;
  redis.on('close', () => {
    if (quiet || lostAt !== null) return;
    lostAt = Date.now();
    io.out(
      `Lost Redis at ${shownUrl(url)}: reconnecting with backoff. Runs under way go on; one that cannot renew its lease within ${Math.round((lockMs * 2) / 3 / 1000)} s stops and is resumed by a worker later.`,
    );
  });
  redis.on('ready', () => {
    if (lostAt === null) return;
    io.out(`Reconnected to Redis at ${shownUrl(url)} after ${((Date.now() - lostAt) / 1000).toFixed(1)} s.`);
    lostAt = null;
  });
  return () => (quiet = true);
}
