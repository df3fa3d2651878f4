/**
 * A queue worker for `npm run bench:scale`: the real `sopworks worker` command (src/apps/cli/worker-command.ts,
 * with its shared rate limits and its signal handling), whose scripted model must pass a rate-limited
 * endpoint before each reply — a request to the benchmark's endpoint (rpm-endpoint.ts), sent with the real
 * retry loop (src/capabilities/model/retry.ts), so a 429 is waited out as its Retry-After asks and pauses
 * every worker, as with a real model. Running the command itself keeps the benchmark from drifting away
 * from what a worker does.
 *
 *   SOPWORKS_REDIS_URL=… SOPWORKS_QUEUE_SECRET=… BENCH_ENDPOINT=… BENCH_RUNS_ROOT=… [SOPWORKS_RPM=…] node --import tsx bench/scale-worker.ts <concurrency>
 *
 * Prints the worker's own lines, then one JSON line: the endpoint retries it made.
 */

import { consoleOutput } from '../src/apps/cli/output.ts';
import { workerCommand } from '../src/apps/cli/worker-command.ts';
import { rateLimitSettings, SharedRateLimits } from '../src/apps/queue/rate-limits.ts';
import { connectRedis, redisUrl } from '../src/apps/queue/redis-connection.ts';
import { rateLimitKey } from '../src/apps/queue/worker-rate-limits.ts';
import type { Completion, CompletionRequest, Provider } from '../src/capabilities/model/provider.ts';
import { type RetryEvent, withRetries } from '../src/capabilities/model/retry.ts';
import { readSettings } from '../src/capabilities/model/settings.ts';

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

const concurrency = process.argv[2] ?? '4';
const rates = rateLimitSettings();
// The worker's limiter pauses on the 429s its model provider reports; the gate's are its own, so it
// pauses the same shared limits (same Redis keys) itself.
const redis = rates.rpm === null && rates.tpm === null ? null : await connectRedis(redisUrl());
const pauser = redis && new SharedRateLimits(redis, rateLimitKey(readSettings()), rates);
let retries = 0;
// Inside the worker's rate limits, so they wrap it: every request to the endpoint is counted.
const gate = {
  wrap: (provider: Provider) =>
    new EndpointGate(provider, process.env.BENCH_ENDPOINT!, (event) => {
      retries += 1;
      if (/^429/.test(event.reason)) void pauser?.pause(event.waitMs).catch(() => {});
    }),
};
process.exitCode = await workerCommand(
  { concurrency, lockMs: process.env.BENCH_LOCK_MS ?? '30000', runsRoot: [process.env.BENCH_RUNS_ROOT!] },
  consoleOutput,
  gate,
);
await redis?.quit();
process.stdout.write(JSON.stringify({ retries }) + '\n');
