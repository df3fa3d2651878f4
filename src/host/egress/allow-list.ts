/**
 * The egress proxy's one rule, written by hand because it is ours: a request goes out only to a
 * configured registry — the same scheme, host and port, nothing else. No wildcard, no address range,
 * no name resolution: the host is compared as written (lower-cased, without a trailing dot, IPv6
 * without brackets), so the host's loopback is reachable only where a registry was configured on it.
 */
import net from 'node:net';

export interface Origin {
  scheme: 'http' | 'https';
  host: string;
  port: number;
}

const DEFAULT_PORTS = { http: 80, https: 443 } as const;

/** The host as compared: lower case, no trailing dot, IPv6 without brackets. */
export function normalHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, '');
}

/** The origin of a registry URL, or null for anything but http(s). */
export function originOf(url: string): Origin | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const scheme = parsed.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') return null;
  return { scheme, host: normalHost(parsed.hostname), port: parsed.port ? Number(parsed.port) : DEFAULT_PORTS[scheme] };
}

/** `host:port` of a CONNECT request (`[::1]:443` for IPv6), or null when it is not one. */
export function authorityOf(authority: string, scheme: Origin['scheme']): Origin | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s]+):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return null;
  const host = normalHost(match[1]!);
  if (match[1]!.startsWith('[') && net.isIP(host) !== 6) return null;
  return { scheme, host, port };
}

export const sameOrigin = (a: Origin, b: Origin): boolean => a.scheme === b.scheme && a.host === b.host && a.port === b.port;

export function allowed(list: readonly Origin[], target: Origin): boolean {
  return list.some((origin) => sameOrigin(origin, target));
}

/** `https://host:port` as a person reads it (default ports left out). */
export function describeOrigin(origin: Origin): string {
  const host = net.isIP(origin.host) === 6 ? `[${origin.host}]` : origin.host;
  return `${origin.scheme}://${host}${origin.port === DEFAULT_PORTS[origin.scheme] ? '' : `:${origin.port}`}`;
}
