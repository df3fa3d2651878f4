/**
 * How the egress proxy reaches a registry: with the user's own settings, which stay on the host — the
 * CA certificates the user trusts (a TLS-intercepting proxy's), the user's proxy and its no-proxy list
 * (read as every other request of sopworks reads them: src/host/net/proxy.ts), and the credentials
 * for a registry. undici makes the request, directly or through the user's proxy (a CONNECT tunnel
 * for https), trusting Node's CA certificates and the user's.
 */
import tls from 'node:tls';
import { Agent, type Dispatcher, ProxyAgent } from 'undici';
import { type ProxySettings, proxyFor } from '../net/index.ts';

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

export interface Upstream {
  /** The dispatcher for a URL: direct, or through the user's proxy for it. */
  dispatcherFor(url: string): Dispatcher;
  close(): Promise<void>;
}

export function upstream(settings: UpstreamSettings): Upstream {
  const ca = [...tls.rootCertificates, ...settings.ca.map((entry) => entry.pem)];
  const timeouts = { headersTimeout: 60_000, bodyTimeout: 120_000 };
  const direct = new Agent({ connect: { ca }, ...timeouts });
  const proxies = new Map<string, ProxyAgent>();
  return {
    dispatcherFor(url) {
      const proxy = proxyFor(url, settings.proxy);
      if (!proxy) return direct;
      let agent = proxies.get(proxy);
      if (!agent) {
        agent = new ProxyAgent({ uri: proxy, requestTls: { ca }, proxyTls: { ca }, ...timeouts });
        proxies.set(proxy, agent);
      }
      return agent;
    },
    async close() {
      await Promise.all([direct, ...proxies.values()].map((agent) => agent.close().catch(() => undefined)));
    },
  };
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
