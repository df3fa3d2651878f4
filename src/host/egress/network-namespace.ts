/**
 * A network namespace for the weaker sandbox modes (no bubblewrap): `unshare --net` — as root, or in a
 * user namespace of one's own where the kernel allows it (`--map-root-user`) — with its loopback
 * brought up by `ip` so the egress forwarder can listen there. Whether it works here is checked once
 * per process by making one. Without it, an install is refused rather than given the host's network.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export type NamespaceAvailability = { available: true; prefix: string[] } | { available: false; reason: string };

/** Brings the namespace's loopback up, then runs the command: `sh -c UP ip cmd args…`. */
const UP =
  'ip=$1; shift; "$ip" link set lo up || { echo "sopworks: could not bring up the loopback of the install\'s network namespace" >&2; exit 125; }; exec "$@"';

const IP_CANDIDATES = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'];

let probe: Promise<NamespaceAvailability> | null = null;

/** How to run a command in a network namespace of its own here, or why that is not possible. */
export function networkNamespaceAvailability(): Promise<NamespaceAvailability> {
  probe ??= probeNamespace();
  return probe;
}

async function probeNamespace(): Promise<NamespaceAvailability> {
  const ip = IP_CANDIDATES.find((candidate) => fs.existsSync(candidate));
  if (!ip) return { available: false, reason: '`ip` (iproute2) is not installed, so a network namespace could not get its loopback' };
  const asRoot = process.getuid?.() === 0;
  const unshare = ['unshare', '--net', ...(asRoot ? [] : ['--map-root-user']), '--'];
  const prefix = [...unshare, '/bin/sh', '-c', UP, 'sopworks-netns', ip];
  try {
    await exec(prefix[0]!, [...prefix.slice(1), 'true'], { timeout: 10_000 });
    return { available: true, prefix };
  } catch (error) {
    const err = error as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === 'ENOENT') return { available: false, reason: '`unshare` (util-linux) is not installed' };
    const said = String(err.stderr ?? err.message)
      .trim()
      .split('\n')[0];
    return { available: false, reason: `this machine does not let sopworks make a network namespace (${said})` };
  }
}
