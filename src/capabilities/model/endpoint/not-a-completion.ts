/**
 * A 200 answer to a chat request that is not a chat completion — what a wrong base URL, a proxy or a
 * login page sends — described: what came back, and its likely cause. Pure; read by the start-up check
 * (preflight.ts) and by the provider's fetch (checked-fetch.ts), so that such an answer is an error
 * that names it rather than `Cannot read properties of undefined` from deep inside a client library.
 */
import { z } from 'zod';

const Completion = z.object({
  choices: z.array(z.object({ message: z.object({}).passthrough() }).passthrough()).min(1),
});

export interface NotACompletion {
  /** What came back, e.g. `an HTML page ("Sign in")`. */
  what: string;
  /** Its likely cause and what to check. */
  cause: string;
}

const WRONG_URL = 'OPENAI_BASE_URL may point at something other than an OpenAI-compatible API (it usually ends in /v1)';

export function describeNonCompletion(body: string, contentType: string | null): NotACompletion | null {
  const text = body.trim();
  const type = (contentType ?? '').toLowerCase();
  if (text === '') return { what: 'an empty body', cause: `the server answered without a reply; ${WRONG_URL}` };
  if (type.includes('text/event-stream') || /^(?:data|event):/.test(text)) {
    return {
      what: 'an event stream (data: lines), though no stream was asked for',
      cause: `a proxy or gateway in between may force streaming; ${WRONG_URL}`,
    };
  }
  if (type.includes('html') || /^<(?:!doctype|html|head|body)\b/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    return {
      what: `an HTML page${title ? ` ("${shorten(title)}")` : ''}`,
      cause: `a web page answered instead of the model server — a proxy, captive portal or login page, or ${WRONG_URL}`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { what: `text that is not JSON ("${shorten(text)}")`, cause: WRONG_URL };
  }
  if (typeof json === 'string') return { what: `a bare JSON string ("${shorten(json)}")`, cause: WRONG_URL };
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { what: `JSON that is not an object (${shorten(text)})`, cause: WRONG_URL };
  if (Completion.safeParse(json).success) return null;
  const choices = (json as { choices?: unknown }).choices;
  if (choices === undefined || choices === null) {
    const keys = Object.keys(json);
    return { what: `JSON without "choices" (${keys.length > 0 ? `keys: ${keys.slice(0, 6).join(', ')}` : 'an empty object'})`, cause: WRONG_URL };
  }
  if (Array.isArray(choices) && choices.length === 0) {
    return {
      what: 'a completion with an empty "choices" list',
      cause: 'the server produced no answer (a content filter, or a model that failed to load); see its log',
    };
  }
  return { what: 'a completion whose choices hold no "message"', cause: WRONG_URL };
}

const shorten = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
};

/** One sentence for an error: what came back from where, and why that may be. */
export const sayNotACompletion = (where: string, found: NotACompletion): string =>
  `The model endpoint ${where} answered a chat request with ${found.what}, not a chat completion: ${found.cause}.`;

/** A base URL that looks like a server's root, missing the `/v1` of its OpenAI-compatible API. */
export const lacksV1 = (baseUrl: string): boolean => {
  try {
    const url = new URL(baseUrl);
    return !/\/v\d+(?:beta)?\/?$/.test(url.pathname) && !/openai/i.test(url.pathname);
  } catch {
    return false;
  }
};
