/** host/egress: its public face — what other folders may use of it. */
export { allowed, authorityOf, describeOrigin, type Origin, originOf, sameOrigin } from './allow-list.ts';
export { createEgressCa } from './egress-ca.ts';
export { type EgressProxy, type EgressRequest, startEgressProxy } from './egress-proxy.ts';
export { throughForwarder, trustEnvironment } from './forwarder.ts';
export { networkNamespaceAvailability } from './network-namespace.ts';
export type { EgressRegistry } from './registry-paths.ts';
export { DEFAULT_EGRESS_BOUNDS, type EgressBounds } from './relay.ts';
export { PROXY_USER_AGENT } from './request-headers.ts';
export { authorizationFor, type Credential, NO_UPSTREAM_SETTINGS, type UpstreamSettings } from './upstream.ts';
