/**
 * One request of `sopworks doctor`, told apart by what came back: a connection that failed, one that was
 * accepted but never answered, an answer that is not JSON (an HTML page from a proxy or a login page, an
 * event stream), or JSON with its status. Never throws: every outcome is something to report.
 */
import { describeNonCompletion } from '../endpoint/not-a-completion.ts';

export type HttpOutcome =
  | { kind: 'unreachable'; cause: string; ms: number }
  | { kind: 'no-answer'; ms: number }
  | { kind: 'not-json'; status: number; contentType: string; excerpt: string; ms: number }
  | { kind: 'json'; status: number; body: unknown; ms: number };

export interface ProbeTarget {
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
}

export async function probe(target: ProbeTarget, method: 'GET' | 'POST', route: string, body?: unknown): Promise<HttpOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  let response: Response;
  try {
    response = await fetch(`${target.baseUrl.replace(/\/$/, '')}${route}`, {
      method,
      headers: {
        ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(target.timeoutMs),
    });
  } catch (error) {
    return failedConnection(error, ms());
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    const outcome = failedConnection(error, ms());
    return outcome.kind === 'no-answer'
      ? outcome
      : { kind: 'not-json', status: response.status, contentType: response.headers.get('content-type') ?? '', excerpt: '(the body was cut off)', ms: ms() };
  }
  const contentType = response.headers.get('content-type') ?? '';
  try {
    return { kind: 'json', status: response.status, body: JSON.parse(text), ms: ms() };
  } catch {
    return { kind: 'not-json', status: response.status, contentType, excerpt: text.slice(0, 2000), ms: ms() };
  }
}

function failedConnection(error: unknown, ms: number): Extract<HttpOutcome, { kind: 'unreachable' | 'no-answer' }> {
  const name = (error as Error)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'no-answer', ms };
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return { kind: 'unreachable', cause: cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error), ms };
}

/** What a body that is not JSON most likely is, for a person to act on (endpoint/not-a-completion.ts). */
export function describeNotJson(outcome: Extract<HttpOutcome, { kind: 'not-json' }>): string {
  const found = describeNonCompletion(outcome.excerpt, outcome.contentType);
  return found ? `${found.what} (${outcome.status}) — ${found.cause}` : `a body that is not JSON (${outcome.status})`;
}

/** The server's own error text from an OpenAI-shaped error body, or the body itself. */
export function errorText(body: unknown): string {
  const error = (body as { error?: unknown })?.error;
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown })?.message ?? (body as { message?: unknown })?.message ?? (body as { detail?: unknown })?.detail;
  return typeof message === 'string' ? message : JSON.stringify(body).slice(0, 200);
}
