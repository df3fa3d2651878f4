/**
 * Bounded retries with exponential backoff for a model request. Our own loop rather than LangChain's or
 * p-retry: LangChain does not retry a 429 that carries no Retry-After, p-retry cannot wait what a
 * Retry-After asks and gives up at once on the TypeError a connection reset mid-response surfaces as.
 *
 * Every bound is a setting: how many retries, the first backoff (doubled each retry, jittered), and the
 * longest wait — a Retry-After beyond it is not waited for; the call fails and the run can be resumed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { decideRetry, type RetryDecision } from './retry-decision.ts';

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
  } = {},
): Promise<RetryOutcome<T>> {
  const random = options.random ?? Math.random;
  const decide = options.decide ?? decideRetry;
  for (let retries = 0; ; retries++) {
    try {
      return { ok: true, value: await attempt(), retries };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const decision = decide(error);
      if (!decision.retry) return { ok: false, error, retries, stop: 'permanent', decision };
      if (retries >= policy.maxRetries) return { ok: false, error, retries, stop: 'exhausted', decision };
      const asked = decision.retryAfterMs !== null;
      if (asked && decision.retryAfterMs! > policy.maxDelayMs) return { ok: false, error, retries, stop: 'wait-too-long', decision };
      const waitMs = asked ? decision.retryAfterMs! : backoffMs(retries, policy, random);
      options.onRetry?.({ retry: retries + 1, maxRetries: policy.maxRetries, reason: decision.reason, waitMs, asked, status: decision.status });
      await sleep(waitMs, undefined, { signal: options.signal });
    }
  }
}

/** Exponential backoff with "equal jitter": half the step fixed, half random, so parallel calls spread out. */
export function backoffMs(retriesSoFar: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retriesSoFar);
  return Math.round(step / 2 + (random() * step) / 2);
}
