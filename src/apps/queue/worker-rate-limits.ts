/**
 * A worker's shared rate limits, as the hooks its runs are handed: every provider a run makes is wrapped,
 * keyed by the endpoint and model of the settings (OPENAI_BASE_URL, SOPWORKS_MODEL) — the same key on
 * every worker — and a 429 any run meets pauses all workers for the wait it asked for; a quota's reset
 * that a run waits out (SOPWORKS_WAIT_FOR_QUOTA) pauses them all until then, so none spends requests meanwhile.
 */
import type { Redis } from 'ioredis';
import type { ProviderHooks, Settings } from '../../capabilities/model/index.ts';
import { RateLimitedProvider } from './rate-limited-provider.ts';
import { type RateLimitSettings, SharedRateLimits } from './rate-limits.ts';

export const rateLimitKey = (settings: Settings): string => `${settings.model.baseUrl ?? 'https://api.openai.com/v1'}|${settings.model.model}`;

/** Null when no limit is set and no reset is waited for. */
export function workerRateLimits(redis: Redis, settings: Settings, limits: RateLimitSettings): { limits: SharedRateLimits; provider: ProviderHooks } | null {
  if (limits.rpm === null && limits.tpm === null && !settings.model.waitForQuota) return null;
  const shared = new SharedRateLimits(redis, rateLimitKey(settings), limits);
  return {
    limits: shared,
    provider: {
      wrap: (provider) => new RateLimitedProvider(provider, shared),
      onRetry: (_call, event) => {
        if (event.status === 429) void shared.pause(event.waitMs).catch(() => {});
      },
      onQuotaWait: (_call, wait) => void shared.pause(wait.until - Date.now()).catch(() => {}),
    },
  };
}
