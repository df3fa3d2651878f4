/**
 * When a 429 says the endpoint's limit resets, read from the shapes real endpoints and proxies use. Pure.
 *
 * Headers, first found wins: `retry-after-ms` (OpenAI), `retry-after` (seconds or an HTTP date),
 * `x-ratelimit-reset-requests` / `-tokens` (OpenAI, Groq: a duration such as `6m0s`; the one whose
 * `x-ratelimit-remaining-*` is 0 when either is), `x-ratelimit-reset` / `ratelimit-reset` /
 * `x-rate-limit-reset` (proxies: epoch seconds or milliseconds, seconds to wait, or a duration), and any
 * `*ratelimit*reset` header holding a date (Anthropic's RFC 3339 ones). Then the body: "try again in
 * 7m12s" (OpenAI), "retry in 37.5s", Google's `retryDelay: "37s"`, "resets at <date>"; and a limit per
 * day that names no time resets at the next midnight UTC.
 */

export interface QuotaReset {
  /** When the endpoint's limit resets (epoch milliseconds). */
  at: number;
  /** What said so, for a person: `the retry-after header`, `the error message`, … */
  source: string;
  /** Whether the limit that ran out is a daily one (its words: per day, daily, RPD, TPD). */
  daily: boolean;
}

type HeaderReader = (name: string) => string | null;

const DAILY = /\bper[ -]day\b|\bdaily\b|\bRPD\b|\bTPD\b|\b(requests|tokens) per day\b|\bPerDay\b/i;

/** The reset a 429's error names, or null when it names none. */
export function quotaResetOf(error: unknown, now = Date.now()): QuotaReset | null {
  const read = headerReader((error as { headers?: unknown })?.headers);
  const text = bodyText(error);
  const daily = DAILY.test(text);
  const fromHeaders = resetFromHeaders(read, now);
  if (fromHeaders) return { ...fromHeaders, daily };
  const fromBody = resetFromText(text, now);
  if (fromBody !== null) return { at: fromBody, source: 'the error message', daily };
  if (daily) return { at: nextMidnightUtc(now), source: 'the error message: a daily limit, no time given (midnight UTC assumed)', daily };
  return null;
}

function resetFromHeaders(read: HeaderReader, now: number): { at: number; source: string } | null {
  const ms = read('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return { at: now + Number(ms), source: 'the retry-after-ms header' };
  const after = read('retry-after');
  if (after !== null && after.trim() !== '') {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return { at: now + seconds * 1000, source: 'the retry-after header' };
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return { at: Math.max(now, date), source: 'the retry-after header' };
  }
  const openai = openAiReset(read, now);
  if (openai) return openai;
  for (const name of ['x-ratelimit-reset', 'ratelimit-reset', 'x-rate-limit-reset']) {
    const value = read(name);
    const at = value === null ? null : resetValue(value, now);
    if (at !== null) return { at, source: `the ${name} header` };
  }
  for (const name of ['anthropic-ratelimit-requests-reset', 'anthropic-ratelimit-tokens-reset', 'anthropic-ratelimit-input-tokens-reset']) {
    const value = read(name);
    const date = value === null ? Number.NaN : Date.parse(value);
    if (!Number.isNaN(date)) return { at: Math.max(now, date), source: `the ${name} header` };
  }
  return null;
}

/** OpenAI's pair: the reset of the limit that ran out, or the later of the two when neither says which. */
function openAiReset(read: HeaderReader, now: number): { at: number; source: string } | null {
  const kinds = (['requests', 'tokens'] as const)
    .map((kind) => ({ kind, wait: parseDuration(read(`x-ratelimit-reset-${kind}`) ?? ''), left: read(`x-ratelimit-remaining-${kind}`) }))
    .filter((k): k is { kind: 'requests' | 'tokens'; wait: number; left: string | null } => k.wait !== null);
  if (kinds.length === 0) return null;
  const spent = kinds.filter((k) => k.left !== null && Number(k.left) <= 0);
  const chosen = (spent.length > 0 ? spent : kinds).reduce((a, b) => (b.wait > a.wait ? b : a));
  return { at: now + chosen.wait, source: `the x-ratelimit-reset-${chosen.kind} header` };
}

/**
 * A reset header's value as proxies write it: epoch milliseconds or seconds, seconds to wait, a duration
 * (`1m30s`), or a date.
 */
export function resetValue(value: string, now: number): number | null {
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const n = Number(trimmed);
    if (n > 1e12) return Math.max(now, n);
    if (n > 1e9) return Math.max(now, n * 1000);
    return now + n * 1000;
  }
  const duration = parseDuration(trimmed);
  if (duration !== null) return now + duration;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(now, date);
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** `6m0s`, `1h2m3.5s`, `20ms`, `37s`, `1.5 seconds` → milliseconds; null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const words = text
    .trim()
    .replace(/\s*(hours?|hrs?)\b/gi, 'h')
    .replace(/\s*(minutes?|mins?)\b/gi, 'm')
    .replace(/\s*(milliseconds?|msecs?)\b/gi, 'ms')
    .replace(/\s*(seconds?|secs?)\b/gi, 's')
    .replace(/\s+/g, '');
  if (!/^(\d+(\.\d+)?(h|ms|m|s))+$/i.test(words)) return null;
  let total = 0;
  for (const [, amount, unit] of words.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/gi)) total += Number(amount) * UNIT_MS[unit!.toLowerCase()]!;
  return Math.round(total);
}

/** A wait or a time the error's words name: "try again in 7m12s", `"retryDelay": "37s"`, "resets at 2026-…". */
function resetFromText(text: string, now: number): number | null {
  const wait =
    /(?:try again|retry|retrying|wait)\s+(?:in|after)\s+((?:\d+(?:\.\d+)?\s*(?:hours?|hrs?|h|minutes?|mins?|m|milliseconds?|ms|seconds?|secs?|s)\s*)+)/i.exec(
      text,
    );
  const waited = wait ? parseDuration(wait[1]!) : null;
  if (waited !== null) return now + waited;
  const delay = /"retryDelay"\s*:\s*"([^"]+)"/.exec(text);
  const delayed = delay ? parseDuration(delay[1]!) : null;
  if (delayed !== null) return now + delayed;
  const at = /(?:resets?|available|try again|retry)\s+(?:at|after|on)\s+(\d{4}-\d{2}-\d{2}[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)/i.exec(text);
  const date = at ? Date.parse(at[1]!) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(now, date);
}

export function nextMidnightUtc(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

function headerReader(headers: unknown): HeaderReader {
  return (name) => {
    if (!headers) return null;
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
    const record = headers as Record<string, unknown>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    const value = key === undefined ? undefined : record[key];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
  };
}

/** The error's message and its body's error object, as one text to read words from. */
function bodyText(error: unknown): string {
  const e = error as { message?: unknown; error?: unknown };
  let body = '';
  try {
    body = e?.error === undefined ? '' : JSON.stringify(e.error);
  } catch {
    body = '';
  }
  return `${typeof e?.message === 'string' ? e.message : String(error)}\n${body}`;
}
