/**
 * A queue worker for `npm run bench:scale`: the real worker (src/apps/queue/worker.ts) with the real shared
 * rate limits, whose scripted model must pass a rate-limited endpoint before each reply — a request to
 * the benchmark's endpoint (rpm-endpoint.ts), sent with the real retry loop (src/capabilities/model/retry.ts), so a 429
 * is waited out as its Retry-After asks and pauses every worker, as with a real model.
 *
 *   SOPWORKS_REDIS_URL=… SOPWORKS_QUEUE_SECRET=… BENCH_ENDPOINT=… BENCH_RUNS_ROOT=… [SOPWORKS_RPM=…] node --import tsx bench/scale-worker.ts <concurrency>
 */
import { readSettings } from '../src/capabilities/model/settings.ts';
import type { Completion, CompletionRequest, Provider } from '../src/capabilities/model/provider.ts';
import { installProviderMiddleware } from '../src/capabilities/model/provider-middleware.ts';
import { withRetries, type RetryEvent } from '../src/capabilities/model/retry.ts';
import { requestProcessStop } from '../src/apps/cli/stop-signals.ts';
import { connectRedis, redisUrl } from '../src/apps/queue/redis-connection.ts';
import { rateLimitSettings } from '../src/apps/queue/rate-limits.ts';
import { installWorkerRateLimits } from '../src/apps/queue/worker-rate-limits.ts';
import { startWorker } from '../src/apps/queue/worker.ts';
import { queueSecret } from '../src/apps/queue/job-signature.ts';
import { resolveWorkerLimits } from '../src/apps/queue/worker-limits.ts';
import { ROOT } from '../test/helpers/paths.ts';

class EndpointGate implements Provider {
  readonly label: string;
  constructor(
    private readonly inner: Provider,
    private readonly endpoint: string,
    private readonly onRetry: (event: RetryEvent) => void,
  ) {
    this.label = inner.label;
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const outcome = await withRetries(
      async () => {
        const response = await fetch(this.endpoint, { method: 'POST', body: '{}', signal: request.signal });
        await response.text();
        if (!response.ok) throw Object.assign(new Error(`${response.status} from the endpoint`), { status: response.status, headers: response.headers });
      },
      { maxRetries: 8, baseDelayMs: 500, maxDelayMs: 60_000 },
      { signal: request.signal, onRetry: this.onRetry },
    );
    if (!outcome.ok) throw outcome.error;
    return { ...(await this.inner.complete(request)), retries: outcome.retries };
  }

  skipUsed(used: Map<string, number>): void {
    this.inner.skipUsed?.(used);
  }
}

const concurrency = Number(process.argv[2] ?? '4');
const settings = readSettings();
const redis = await connectRedis(redisUrl());
let retries = 0;
// Installed first, so the rate limits wrap it: every request to the endpoint is counted.
installProviderMiddleware({
  wrap: (provider) =>
    new EndpointGate(provider, process.env.BENCH_ENDPOINT!, (event) => {
      retries += 1;
      if (/^429/.test(event.reason)) void limits?.limits.pause(event.waitMs);
    }),
});
const limits = installWorkerRateLimits(redis, settings, rateLimitSettings());
const jobLimits = await resolveWorkerLimits({
  runsRoots: [process.env.BENCH_RUNS_ROOT!],
  companyRoots: [ROOT],
  allowUnsandboxed: false,
  allowBaseUrls: [],
  allowModels: [],
  ownBaseUrl: settings.model.baseUrl ?? null,
});
const worker = startWorker(redis, { concurrency, lockMs: 30_000, log: () => {}, secret: queueSecret(), limits: jobLimits });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  requestProcessStop();
  void worker.close();
});
await worker.done;
process.stdout.write(JSON.stringify({ retries, limiterWaits: limits?.limits.waits ?? 0 }) + '\n');
await redis.quit();
