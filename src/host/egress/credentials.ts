/**
 * What the egress proxy sends upstream on the user's behalf, as settings: the CA certificates, the proxy
 * and the credentials for a registry — and which credential a URL gets. Apart from upstream.ts so that
 * reading them loads no HTTP client.
 */
import type { ProxySettings } from '../net/index.ts';

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
  proxy: ProxySettings;
  credentials: Credential[];
}

export const NO_UPSTREAM_SETTINGS: UpstreamSettings = { ca: [], proxy: { httpsProxy: null, httpProxy: null, noProxy: null }, credentials: [] };

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
