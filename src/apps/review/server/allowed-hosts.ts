/**
 * The names the viewer answers to. A browser sends the name it was asked to load in the Host header;
 * a page on another site that makes its own name resolve to this machine (DNS rebinding) sends that
 * other name, so a request whose Host is not one of these is refused, whatever address the server is
 * bound to. Bound to one address: that address (and, on the loopback, its usual names). Bound to every
 * address (0.0.0.0, ::): the loopback names and this machine's own addresses — an address is no name an
 * attacker's page can give itself. Any other name (a DNS name, a proxy's) only by `--allow-host`.
 */
import os from 'node:os';

export const isLoopback = (host: string): boolean => host === '127.0.0.1' || host === 'localhost' || host === '::1' || host.startsWith('127.');
export const isWildcard = (host: string): boolean => host === '0.0.0.0' || host === '::';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** An address as a Host header writes it: IPv6 in brackets. */
const asHost = (address: string): string => (address.includes(':') && !address.startsWith('[') ? `[${address}]` : address);

/** Lower-cased `name:port` entries (and the bare name on port 80, which browsers send without it). */
export function allowedHostsFor(bound: string, port: number, extra: readonly string[]): Set<string> {
  const names: string[] = [];
  if (isWildcard(bound)) {
    names.push(...LOOPBACK_NAMES);
    for (const addresses of Object.values(os.networkInterfaces())) for (const a of addresses ?? []) names.push(asHost(a.address.split('%')[0]!));
  } else {
    names.push(asHost(bound));
    if (isLoopback(bound)) names.push(...LOOPBACK_NAMES);
  }
  const allowed = new Set<string>();
  const add = (host: string) => {
    allowed.add(host.toLowerCase());
    if (port === 80) allowed.add(host.replace(/:80$/, '').toLowerCase());
  };
  for (const name of names) add(`${name}:${port}`);
  for (const name of extra) add(/:\d+$/.test(name) && !/^[^[]*:[^\]]*:/.test(name) ? name : `${asHost(name)}:${port}`);
  return allowed;
}
