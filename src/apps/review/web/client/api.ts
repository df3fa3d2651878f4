/** Talking to the viewer's server: its JSON answers, typed by the server's own contract (server/api-types.ts). */
import type { ErrorAnswer } from '../../server/api-types.ts';

/** An error the server answered with: its HTTP status, its message and its hint. */
export class ServerError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly hint: string | null = null,
  ) {
    super(message);
  }
}

export const runUrl = (name: string): string => `/api/runs/${encodeURIComponent(name)}`;

async function answerOf<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => null)) as (T & Partial<ErrorAnswer>) | null;
  if (!res.ok) throw new ServerError(res.status, body?.error ?? `${res.status} ${res.statusText}`, body?.hint ?? null);
  if (body === null) throw new ServerError(res.status, 'The server answered with something that is not JSON.', 'Reload the page.');
  return body;
}

export async function getJson<T>(url: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' } });
  } catch {
    throw new ServerError(0, "The viewer's server cannot be reached.", 'Is `sopworks serve` still running? Start it again, then reload this page.');
  }
  return answerOf<T>(res);
}

/**
 * A write: POST, JSON, with the page's cookie — the server checks the token, Origin and Host.
 * `nothing` says what did not happen when the server cannot be reached.
 */
export async function postJson<T>(url: string, body: unknown, nothing: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ServerError(0, `The viewer's server cannot be reached; ${nothing}.`);
  }
  return answerOf<T>(res);
}
