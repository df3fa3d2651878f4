/**
 * Bounded retries with exponential backoff for a model request. Our own loop rather than LangChain's or
 * p-retry: LangChain does not retry a 429 that carries no Retry-After, p-retry cannot wait what a
 * Retry-After asks and gives up at once on the TypeError a connection reset mid-response surfaces as.
 *
 * Every bound is a setting: how many retries, the first backoff (doubled each retry, jittered), and the
 * longest wait — a Retry-After beyond it is not waited for; the call fails and the run can be resumed.
 * With `longWaits` (--wait-for-quota), a limit that resets later than that is waited out instead: up to
 * `max` times per request, each at most a day and an hour, a second past the reset.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { QuotaReset } from './quota-reset.ts';
import { decideRetry, type RetryDecision } from './retry-decision.ts';

/** The longest reset waited out: a daily limit's, with an hour to spare. */
export const LONGEST_QUOTA_WAIT_MS = 25 * 3_600_000;
/** Waited past a reset, for clocks that differ a little. */
const PAST_RESET_MS = 1000;

/** A limit's reset waited out (--wait-for-quota): until when, and why. */
export interface QuotaWait {
  until: number;
  reason: string;
  reset: QuotaReset | null;
  status?: number | undefined;
}

export interface RetryPolicy {
  /** Requests sent again after the first one, at most. */
  maxRetries: number;
  /** The first backoff; it doubles with each retry. */
  baseDelayMs: number;
  /** No wait is longer than this. */
  maxDelayMs: number;
}

export interface RetryEvent {
  /** 1 for the first retry. */
  retry: number;
  maxRetries: number;
  reason: string;
  waitMs: number;
  /** True when the wait is the one the endpoint asked for (Retry-After). */
  asked: boolean;
  /** The endpoint's HTTP status, when it answered with one. */
  status?: number | undefined;
}

export type RetryOutcome<T> =
  | { ok: true; value: T; retries: number }
  | {
      ok: false;
      error: unknown;
      retries: number;
      /** `permanent`: not worth retrying; `exhausted`: out of retries; `wait-too-long`: Retry-After beyond the longest wait. */
      stop: 'permanent' | 'exhausted' | 'wait-too-long';
      decision: RetryDecision;
    };

export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  options: {
    signal?: AbortSignal;
    onRetry?: (event: RetryEvent) => void;
    /** Whether an error is worth retrying; default: decideRetry. */
    decide?: (error: unknown) => RetryDecision;
    random?: () => number;
    /** Waits out a limit that resets later than the longest wait, telling `onWait` first (at most `max` per request). */
    longWaits?: { max: number; onWait: (wait: QuotaWait) => void };
  } = {},
): Promise<RetryOutcome<T>> {
  const random = options.random ?? Math.random;
  const decide = options.decide ?? decideRetry;
  let longWaits = 0;
  for (let retries = 0; ; retries++) {
    try {
      return { ok: true, value: await attempt(), retries };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const decision = decide(error);
      if (!decision.retry) return { ok: false, error, retries, stop: 'permanent', decision };
      const asked = decision.retryAfterMs !== null;
      if (asked && decision.retryAfterMs! > policy.maxDelayMs) {
        const long = options.longWaits;
        if (!long || longWaits >= long.max || decision.retryAfterMs! > LONGEST_QUOTA_WAIT_MS)
          return { ok: false, error, retries, stop: 'wait-too-long', decision };
        longWaits++;
        const waitMs = decision.retryAfterMs! + PAST_RESET_MS;
        long.onWait({ until: Date.now() + waitMs, reason: decision.reason, reset: decision.reset ?? null, status: decision.status });
        await sleep(waitMs, undefined, { signal: options.signal });
        continue;
      }
      // A limit waited out spends none of the retries (the request after it is counted all the same).
      if (retries - longWaits >= policy.maxRetries) return { ok: false, error, retries, stop: 'exhausted', decision };
      const waitMs = asked ? decision.retryAfterMs! : backoffMs(retries, policy, random);
      options.onRetry?.({ retry: retries - longWaits + 1, maxRetries: policy.maxRetries, reason: decision.reason, waitMs, asked, status: decision.status });
      await sleep(waitMs, undefined, { signal: options.signal });
    }
  }
}

/** Exponential backoff with "equal jitter": half the step fixed, half random, so parallel calls spread out. */
export function backoffMs(retriesSoFar: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retriesSoFar);
  return Math.round(step / 2 + (random() * step) / 2);
}
