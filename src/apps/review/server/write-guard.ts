/**
 * What a request must carry before the viewer lets it change anything (a decision on a run): it is a
 * local tool that can make runs go on, so it is guarded as Jupyter guards its notebooks. A secret token,
 * made when the server starts and printed with its URL, is exchanged once for an HttpOnly, SameSite=Strict
 * cookie; every write must then be a POST of JSON, addressed to this server (Host), sent by a page of this
 * server (Origin), with the token — as that cookie or an `x-sopworks-token` header. Anything else is refused.
 */
import crypto from 'node:crypto';
import type http from 'node:http';

export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface WriteGuard {
  /** The secret, as printed in the URL. */
  readonly token: string;
  /** The cookie that carries the token for this server's pages. */
  readonly cookieName: string;
  /** Whether a query-string or cookie token is this server's. */
  matches(candidate: string | undefined | null): boolean;
  /** The Set-Cookie header value that lets a browser's pages write. */
  cookie(): string;
  /** Whether a request carries the token (cookie or header). */
  authorised(req: http.IncomingMessage): boolean;
  /** Throws a Refusal unless the request may write. Host is checked by the server before any route. */
  check(req: http.IncomingMessage): void;
}

const cookiesOf = (req: http.IncomingMessage): Map<string, string> =>
  new Map(
    (req.headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .filter((pair): pair is [string, string] => pair.length === 2 && pair[0] !== '')
      .map(([k, v]) => [k, v]),
  );

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

export function writeGuard(port: number, token: string = crypto.randomBytes(24).toString('base64url')): WriteGuard {
  // Cookies are not kept apart by port: the name is, so two viewers on one machine do not clobber each other.
  const cookieName = `sopworks-token-${port}`;
  const matches = (candidate: string | undefined | null) => typeof candidate === 'string' && sameSecret(candidate, token);
  const authorised = (req: http.IncomingMessage) => {
    const header = req.headers['x-sopworks-token'];
    return matches(cookiesOf(req).get(cookieName)) || matches(Array.isArray(header) ? header[0] : header);
  };
  return {
    token,
    cookieName,
    matches,
    cookie: () => `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`,
    authorised,
    check(req) {
      if (req.method !== 'POST') throw new Refusal(405, `${req.method} cannot change anything: decisions are sent with POST.`);
      const origin = req.headers.origin;
      const expected = `http://${req.headers.host ?? ''}`;
      if (!origin) throw new Refusal(403, 'Refused: a decision must come from a page of this viewer (the request has no Origin).');
      if (origin.toLowerCase() !== expected.toLowerCase())
        throw new Refusal(403, `Refused: a decision must come from a page of this viewer (${expected}), not from ${origin}.`);
      if (!authorised(req))
        throw new Refusal(
          403,
          'Refused: this needs the token `sopworks serve` printed with its URL. Open that URL (it ends in ?token=…) to decide from the page.',
        );
      if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
        throw new Refusal(415, 'A decision is sent as JSON (content-type: application/json).');
    },
  };
}
