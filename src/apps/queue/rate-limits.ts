/**
 * Shared rate limits: requests and tokens per minute of one endpoint and model, counted in Redis by
 * rate-limiter-flexible so every worker on every machine draws from the same allowance; and a 429 seen
 * by any worker blocks all of them for as long as its Retry-After asks.
 *
 * Requests are counted in short windows (RPM/60 per second, or the smallest whole window that holds a
 * whole number of requests), so the allowance is spread over the minute instead of spent in a burst at
 * its start — an endpoint counting over a sliding minute would answer that burst with 429s. Tokens are
 * counted per minute: one call may need more than a second's share.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import { numberSetting } from '../../ground/env-settings.ts';
import { SopworksError } from '../../ground/errors.ts';

export interface RateLimitSettings {
  /** Requests per minute of the endpoint and model; null: not limited. */
  rpm: number | null;
  /** Tokens (prompt + completion) per minute; null: not limited. */
  tpm: number | null;
}

const Limit = numberSetting(null, (n) => Number.isInteger(n) && n >= 1, 'a whole number ≥ 1');
const Env = z.object({
  SOPWORKS_RPM: Limit,
  SOPWORKS_TPM: Limit,
});

export function rateLimitSettings(env: NodeJS.ProcessEnv = process.env): RateLimitSettings {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SopworksError('CONFIG_INVALID', `${String(issue.path[0])} ${issue.message}.`, {
      hint: "Set the endpoint's limits in the environment or .env (.env.example).",
    });
  }
  return { rpm: parsed.data.SOPWORKS_RPM, tpm: parsed.data.SOPWORKS_TPM };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The shortest window (whole seconds) holding a whole number of requests at this rate. */
export function requestWindow(rpm: number): { seconds: number; requests: number } {
  const seconds = 60 / gcd(rpm, 60);
  return { seconds, requests: (rpm * seconds) / 60 };
}

/** Points of the pause limiter: never consumed, only blocked (a key blocked holds more than this). */
const PAUSE_POINTS = 1;

export class SharedRateLimits {
  private readonly requests: RateLimiterRedis | null;
  private readonly tokens: RateLimiterRedis | null;
  /** Blocked while the endpoint asked every worker to wait; read before each request, never consumed. */
  private readonly pauses: RateLimiterRedis;
  /** Waiting in this process, for the figures: how many times and how long. */
  waits = 0;
  waitedMs = 0;

  constructor(
    redis: Redis,
    private readonly key: string,
    readonly settings: RateLimitSettings,
  ) {
    const window = settings.rpm === null ? null : requestWindow(settings.rpm);
    this.requests = window && new RateLimiterRedis({ storeClient: redis, keyPrefix: 'sopworks-rpm', points: window.requests, duration: window.seconds });
    this.tokens = settings.tpm === null ? null : new RateLimiterRedis({ storeClient: redis, keyPrefix: 'sopworks-tpm', points: settings.tpm, duration: 60 });
    this.pauses = new RateLimiterRedis({ storeClient: redis, keyPrefix: 'sopworks-pause', points: PAUSE_POINTS, duration: 1 });
  }

  /** Waits until a request of about `tokens` prompt tokens may go out, then counts it. */
  async acquire(tokens: number, signal?: AbortSignal): Promise<void> {
    await this.pausedFor(signal);
    if (this.requests) await this.take(this.requests, 1, signal);
    if (this.tokens) await this.take(this.tokens, Math.min(tokens, this.settings.tpm!), signal);
  }

  /** Counts what a reply used beyond the estimate (its completion tokens), without waiting. */
  async settle(extraTokens: number): Promise<void> {
    if (this.tokens && extraTokens > 0) await this.tokens.penalty(this.key, extraTokens);
  }

  /** The endpoint said 429: no worker sends a request for `ms` (a quota's reset: until it). */
  async pause(ms: number): Promise<void> {
    await this.pauses.block(this.key, Math.max(1, Math.ceil(ms / 1000)));
  }

  /** Until when the workers are paused (epoch ms), or null when they are not. */
  async pausedUntil(): Promise<number | null> {
    const state = await this.pauses.get(this.key);
    return state && state.consumedPoints > PAUSE_POINTS ? Date.now() + state.msBeforeNext : null;
  }

  private async pausedFor(signal?: AbortSignal): Promise<void> {
    for (let until = await this.pausedUntil(); until !== null; until = await this.pausedUntil()) {
      const ms = Math.max(5, until - Date.now());
      this.waits += 1;
      this.waitedMs += ms;
      await sleep(ms, undefined, { signal });
    }
  }

  private async take(limiter: RateLimiterRedis, points: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      try {
        await limiter.consume(this.key, points);
        return;
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        // A rejected request counts too, until its window ends: waiting out the window is what frees it.
        const ms = Math.max(5, error.msBeforeNext);
        this.waits += 1;
        this.waitedMs += ms;
        await sleep(ms, undefined, { signal });
      }
    }
  }
}
