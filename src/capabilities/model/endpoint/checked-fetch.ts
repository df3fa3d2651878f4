/**
 * The fetch the OpenAI client is given: the platform's own, except that a 200 answer to a chat request
 * that is not a chat completion (not-a-completion.ts) is turned into an error answer that says what came
 * back. Thrown from here, an error would reach the client as a "Connection error" and be retried; an
 * answer with a status of its own (422, not retried) carries the description instead, marked by a
 * header for the provider to recognise (`notACompletionMessage`).
 */
import { describeNonCompletion, sayNotACompletion } from './not-a-completion.ts';

const MARK = 'x-sopworks-not-a-completion';

export function checkedFetch(where: string, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (response.status !== 200 || !/\/chat\/completions(?:\?|$)/.test(url)) return response;
    const body = await response.text();
    const found = describeNonCompletion(body, response.headers.get('content-type'));
    if (!found) return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    return new Response(JSON.stringify({ error: { message: sayNotACompletion(where, found), type: 'not_a_completion' } }), {
      status: 422,
      headers: { 'content-type': 'application/json', [MARK]: '1' },
    });
  };
}

/** The description, when an error is the answer made above; null for any other error. */
export function notACompletionMessage(error: unknown): string | null {
  const e = error as { headers?: { get?: (name: string) => string | null } | Record<string, string>; error?: { message?: unknown } };
  const headers = e?.headers;
  const marked = typeof headers?.get === 'function' ? headers.get(MARK) : (headers as Record<string, string> | undefined)?.[MARK];
  return marked && typeof e.error?.message === 'string' ? e.error.message : null;
}
