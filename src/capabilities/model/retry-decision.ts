/**
 * Whether a failed model request is worth sending again, and how long the endpoint asked us to wait.
 * Pure: it reads the error the OpenAI client (through LangChain) threw and decides nothing else.
 *
 * Sent again: 429 (unless the quota is used up with no word of when it resets), 408, 409, 425, 5xx, a
 * request that timed out, a connection refused or reset (also mid-response). Not sent again: other 4xx —
 * the same request would fail the same way — and a request the run itself aborted. A 429's wait is when
 * its limit resets, in any shape quota-reset.ts reads.
 */
import { type QuotaReset, quotaResetOf } from './quota-reset.ts';

/**
 * `status`: the endpoint's HTTP status, when it answered with one (a 429 pauses a worker's shared rate
 * limits); `reset`: when a 429's limit resets, as the endpoint said.
 */
export type RetryDecision =
  | { retry: true; reason: string; retryAfterMs: number | null; status?: number; reset?: QuotaReset }
  | { retry: false; reason: string };

const RETRIED_STATUSES = new Set([408, 409, 425, 429]);

/** Quota (billing) exhaustion comes as a 429 too, but waiting does not help. */
const QUOTA = /insufficient[_ ]quota|exceeded your current quota|billing|credit balance/i;

/** What the fetch stack says when a connection fails or breaks mid-response. */
const CONNECTION = /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|EAI_AGAIN|UND_ERR_|socket hang up|other side closed|terminated|fetch failed|Connection error/i;

export function decideRetry(error: unknown, now = Date.now()): RetryDecision {
  const e = error as {
    name?: string;
    message?: string;
    status?: number;
    code?: string;
    cause?: { code?: string; message?: string };
    error?: { code?: string };
  };
  if (e?.name === 'AbortError') return { retry: false, reason: 'aborted' };
  const status = typeof e?.status === 'number' ? e.status : undefined;
  const message = String(e?.message ?? error);
  if (status !== undefined) {
    if (status === 429) {
      const reset = quotaResetOf(error, now);
      const quota = QUOTA.test(message) || e.code === 'insufficient_quota' || e.error?.code === 'insufficient_quota';
      if (reset)
        return { retry: true, reason: quota ? '429: the quota is used up' : '429 rate limited', retryAfterMs: Math.max(0, reset.at - now), status, reset };
      if (quota) return { retry: false, reason: '429: the quota is used up' };
    }
    if (RETRIED_STATUSES.has(status) || status >= 500) {
      return { retry: true, reason: status === 429 ? '429 rate limited' : `${status} from the endpoint`, retryAfterMs: retryAfterMs(error), status };
    }
    return { retry: false, reason: `${status} from the endpoint` };
  }
  if (e?.name === 'TimeoutError' || /timed out/i.test(message)) return { retry: true, reason: 'the request timed out', retryAfterMs: null };
  const cause = `${e?.cause?.code ?? ''} ${e?.cause?.message ?? ''}`;
  if (CONNECTION.test(`${message} ${cause} ${e?.code ?? ''}`)) return { retry: true, reason: `the connection failed (${message.trim()})`, retryAfterMs: null };
  return { retry: false, reason: message };
}

/**
 * `retry-after-ms` (OpenAI's, in milliseconds) or `Retry-After` (seconds, or an HTTP date) from the
 * error's response headers; null when the endpoint gave neither.
 */
export function retryAfterMs(error: unknown, now = Date.now()): number | null {
  const headers = (error as { headers?: unknown })?.headers;
  const read = (name: string): string | null => {
    if (!headers) return null;
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
    const value = (headers as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : null;
  };
  const ms = Number(read('retry-after-ms'));
  if (read('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const after = read('retry-after');
  if (after === null || after.trim() === '') return null;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
