/**
 * The request headers the proxy sends upstream: an allow-list, each value of a bounded shape — every
 * other header the sandbox sent is dropped (its cookies, its `authorization`, npm's session id, any
 * header of its own making), and the user agent is the proxy's. The user's credential is added by the
 * proxy itself, only to a request it allowed (egress-proxy.ts). Pure.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** What npm and pip send that a registry needs to answer: content negotiation, and compression. */
const FORWARDED: Record<string, RegExp> = {
  accept: /^[A-Za-z0-9.+*/=;,\s-]{1,512}$/,
  'accept-encoding': /^[A-Za-z0-9\s,;=.*-]{1,64}$/,
};

export const PROXY_USER_AGENT = 'sopworks-egress-proxy';

/**
 * The headers to send upstream for a request. `identity`: ask for an uncompressed answer (a page the
 * proxy reads for its links).
 */
export function forwardedHeaders(headers: IncomingHttpHeaders, options: { identity: boolean }): Record<string, string> {
  const out: Record<string, string> = { 'user-agent': PROXY_USER_AGENT };
  for (const [name, shape] of Object.entries(FORWARDED)) {
    const value = headers[name];
    if (typeof value === 'string' && shape.test(value)) out[name] = value;
  }
  if (options.identity) out['accept-encoding'] = 'identity';
  return out;
}
