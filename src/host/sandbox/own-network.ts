/**
 * A command that must not have the host's network — a dependency install — gets a network namespace
 * of its own in every mode: bubblewrap's (`--unshare-all`), or `unshare --net` for the weaker modes;
 * where neither can be made, it is refused, never run on the host's network. With an egress proxy its
 * only way out is the proxy's Unix socket, reached through the forwarder (host/egress/forwarder.ts),
 * and it trusts only the proxy's one-step CA.
 */
import { SopworksError } from '../../ground/errors.ts';
import { networkNamespaceAvailability, throughForwarder, trustEnvironment } from '../egress/index.ts';
import { ownNode } from './find-command.ts';
import type { SandboxMode } from './sandbox-report.ts';

export interface EgressEndpoint {
  /** The proxy's Unix socket on the host. */
  socketPath: string;
  /** The proxy's CA certificate on the host. */
  caFile: string;
}

/** A network namespace of the command's own, reaching out only through `egress` (none: no way out). */
export interface OwnNetwork {
  egress: EgressEndpoint | null;
}

export interface NetworkLayer {
  /** Put before the command outside bubblewrap (`unshare --net …`). */
  prefix: string[];
  argv: string[];
  env: Record<string, string>;
  /** Bound into bubblewrap at its own paths. */
  binds: { source: string; target: string; readOnly: boolean }[];
  /** Folders bubblewrap must show read-only (the forwarder's Node). */
  roots: string[];
}

const INSIDE_SOCKET = '/run/sopworks/egress.sock';
const INSIDE_CA = '/run/sopworks/egress-ca.pem';

export async function ownNetworkLayer(mode: SandboxMode, own: OwnNetwork | undefined, argv: readonly string[]): Promise<NetworkLayer> {
  const none: NetworkLayer = { prefix: [], argv: [...argv], env: {}, binds: [], roots: [] };
  if (!own) return none;
  if (mode !== 'bubblewrap') {
    const namespace = await networkNamespaceAvailability();
    if (!namespace.available) {
      throw new SopworksError(
        'TEST_RUN_FAILED',
        `Refused to run "${argv.join(' ')}": a dependency install never gets the host's network, and without bubblewrap it needs a network namespace of its own, which cannot be made here: ${namespace.reason}.`,
        {
          hint: 'Install bubblewrap (apt-get install bubblewrap); or run where `unshare --net` works (as root, or with unprivileged user namespaces) with iproute2 installed; or set dependencies.install: false in the policy.',
        },
      );
    }
    none.prefix = namespace.prefix;
  }
  if (!own.egress) return none;
  const node = await ownNode();
  const inside = mode === 'bubblewrap';
  return {
    prefix: none.prefix,
    argv: throughForwarder(node.program, inside ? INSIDE_SOCKET : own.egress.socketPath, argv),
    env: trustEnvironment(inside ? INSIDE_CA : own.egress.caFile),
    binds: inside
      ? [
          { source: own.egress.socketPath, target: INSIDE_SOCKET, readOnly: false },
          { source: own.egress.caFile, target: INSIDE_CA, readOnly: true },
        ]
      : [],
    roots: inside ? node.roots : [],
  };
}
