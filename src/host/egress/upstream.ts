/**
 * How the egress proxy reaches a registry: with the user's own settings, which stay on the host — the
 * CA certificates the user trusts (a TLS-intercepting proxy's), the user's proxy and its no-proxy list
 * (read as every other request of sopworks reads them: src/host/net/proxy.ts), and the credentials
 * for a registry. undici makes the request, directly or through the user's proxy (a CONNECT tunnel
 * for https), trusting Node's CA certificates and the user's.
 */
import tls from 'node:tls';
import { Agent, type Dispatcher, ProxyAgent } from 'undici';
import { proxyFor } from '../net/index.ts';
import type { UpstreamSettings } from './credentials.ts';

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
