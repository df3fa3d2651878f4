/**
 * One request of `sopworks doctor`, told apart by what came back: a connection that failed, one that was
 * accepted but never answered, an answer that is not JSON (an HTML page from a proxy or a login page, an
 * event stream), or JSON with its status. Never throws: every outcome is something to report.
 */
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
      headers: { ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
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
    return outcome.kind === 'no-answer' ? outcome : { kind: 'not-json', status: response.status, contentType: response.headers.get('content-type') ?? '', excerpt: '(the body was cut off)', ms: ms() };
  }
  const contentType = response.headers.get('content-type') ?? '';
  try {
    return { kind: 'json', status: response.status, body: JSON.parse(text), ms: ms() };
  } catch {
    return { kind: 'not-json', status: response.status, contentType, excerpt: text.replace(/\s+/g, ' ').trim().slice(0, 120), ms: ms() };
  }
}

function failedConnection(error: unknown, ms: number): Extract<HttpOutcome, { kind: 'unreachable' | 'no-answer' }> {
  const name = (error as Error)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'no-answer', ms };
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return { kind: 'unreachable', cause: cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error), ms };
}

/** What a body that is not JSON most likely is, for a person to act on. */
export function describeNotJson(outcome: Extract<HttpOutcome, { kind: 'not-json' }>): string {
  const { contentType, excerpt, status } = outcome;
  if (/text\/html/i.test(contentType) || /^<(!doctype|html)/i.test(excerpt)) {
    return `an HTML page (${status}: "${excerpt.slice(0, 60)}…") — a wrong base URL, or a proxy or login page in the way`;
  }
  if (/text\/event-stream/i.test(contentType) || /^data:/.test(excerpt)) return `an event stream (${status}) although none was asked for`;
  if (excerpt === '') return `an empty body (${status})`;
  return `text that is not JSON (${status}: "${excerpt.slice(0, 60)}")`;
}

/** The server's own error text from an OpenAI-shaped error body, or the body itself. */
export function errorText(body: unknown): string {
  const error = (body as { error?: unknown })?.error;
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown })?.message ?? (body as { message?: unknown })?.message ?? (body as { detail?: unknown })?.detail;
  return typeof message === 'string' ? message : JSON.stringify(body).slice(0, 200);
}
