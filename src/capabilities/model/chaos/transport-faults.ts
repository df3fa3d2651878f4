/**
 * Server faults as the OpenAI client reports them — a 429 with Retry-After, a 5xx, a connection reset,
 * a proxy's HTML error page — shaped like the client's own errors (status, headers, body, cause), so the
 * real retry decision (retry-decision.ts) and retry loop (retry.ts) handle them as they would a server's.
 * Each fault class fails a request once or twice before the server recovers.
 */
import type { Draws } from './draws.ts';

export type TransportFault = (draws: Draws) => Error;

/** An error as the OpenAI SDK's APIError carries it. */
function apiError(status: number, message: string, headers: Record<string, string>, body: unknown): Error {
  return Object.assign(new Error(`${status} ${message}`), { status, headers: new Headers(headers), error: body });
}

export const rateLimited: TransportFault = (draws) => {
  const waitMs = draws.int(20, 120);
  return apiError(
    429,
    'Rate limit reached for requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in a moment.',
    draws.next() < 0.5 ? { 'retry-after-ms': String(waitMs) } : { 'retry-after': '0' },
    { message: 'Rate limit reached for requests per min (RPM).', type: 'requests', code: 'rate_limit_exceeded' },
  );
};

export const serverError: TransportFault = (draws) => {
  const [status, message] = draws.pick([
    [500, 'The server had an error while processing your request. Sorry about that!'],
    [503, 'The engine is currently overloaded, please try again later.'],
  ] as const);
  return apiError(status, message, {}, { message, type: 'server_error' });
};

export const connectionReset: TransportFault = () =>
  Object.assign(new Error('Connection error.'), {
    name: 'Error',
    cause: Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }),
  });

export const proxyErrorPage: TransportFault = (draws) => {
  const [status, title] = draws.pick([
    [502, '502 Bad Gateway'],
    [504, '504 Gateway Time-out'],
  ] as const);
  const page = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>`;
  return apiError(status, page, { 'content-type': 'text/html' }, page);
};
