/**
 * How the egress proxy reaches a registry: with the user's own settings, which stay on the host — the
 * CA certificates the user trusts (a TLS-intercepting proxy's), the user's proxy, and the credentials
 * for a registry. undici makes the request: its EnvHttpProxyAgent applies the proxy and its no-proxy
 * list as curl and npm do.
 */
import tls from 'node:tls';
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';

export interface Credential {
  /** `//host[:port]/path/` (npm's "nerf dart"): every URL under it gets the header. */
  prefix: string;
  authorization: string;
  /** Where it was configured, for messages (never the value). */
  from: string;
}

export interface UpstreamSettings {
  /** CA certificates (PEM) trusted besides Node's own, with where each came from. */
  ca: { pem: string; from: string }[];
  httpProxy: string | null;
  httpsProxy: string | null;
  noProxy: string;
  credentials: Credential[];
}

export const NO_UPSTREAM_SETTINGS: UpstreamSettings = { ca: [], httpProxy: null, httpsProxy: null, noProxy: '', credentials: [] };

export function upstreamDispatcher(settings: UpstreamSettings): Dispatcher {
  const ca = [...tls.rootCertificates, ...settings.ca.map((entry) => entry.pem)];
  return new EnvHttpProxyAgent({
    // An empty string, not undefined: undefined would read this process's environment behind our back.
    httpProxy: settings.httpProxy ?? '',
    httpsProxy: settings.httpsProxy ?? '',
    noProxy: settings.noProxy,
    connect: { ca },
    requestTls: { ca },
    proxyTls: { ca },
    headersTimeout: 60_000,
    bodyTimeout: 120_000,
  });
}

/** `//host[:port]/path/` of a URL, npm's way (default ports and the scheme left out). */
export function nerfDart(url: string): string {
  const parsed = new URL(url);
  const dir = parsed.pathname.endsWith('/') ? parsed.pathname : parsed.pathname.replace(/[^/]*$/, '');
  return `//${parsed.host}${dir}`;
}

/** The header for a URL: the credential with the longest prefix that contains it. */
export function authorizationFor(url: string, credentials: readonly Credential[]): string | null {
  const dart = nerfDart(url);
  let best: Credential | null = null;
  for (const credential of credentials) {
    if (dart.startsWith(credential.prefix) && (!best || credential.prefix.length > best.prefix.length)) best = credential;
  }
  return best?.authorization ?? null;
}
