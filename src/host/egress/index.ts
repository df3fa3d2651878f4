/** host/egress: its public face — what other folders may use of it. */
export { describeOrigin, type Origin, originOf, sameOrigin } from './allow-list.ts';
export { type EgressProxy, type EgressRequest, startEgressProxy } from './egress-proxy.ts';
export { throughForwarder, trustEnvironment } from './forwarder.ts';
export { networkNamespaceAvailability } from './network-namespace.ts';
export type { EgressRegistry } from './registry-paths.ts';
export { DEFAULT_EGRESS_BOUNDS, type EgressBounds } from './relay.ts';
export type { Credential, UpstreamSettings } from './upstream.ts';
