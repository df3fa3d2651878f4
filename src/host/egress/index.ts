/** host/egress: its public face — what other folders may use of it. */
export { allowed, authorityOf, describeOrigin, type Origin, originOf, sameOrigin } from './allow-list.ts';
export { authorizationFor, type Credential, NO_UPSTREAM_SETTINGS, type UpstreamSettings } from './credentials.ts';
export { DEFAULT_EGRESS_BOUNDS, type EgressBounds } from './egress-bounds.ts';
export { createEgressCa, startEgressProxy } from './egress-load.ts';
export type { EgressProxy, EgressRequest } from './egress-proxy.ts';
export { throughForwarder, trustEnvironment } from './forwarder.ts';
export { networkNamespaceAvailability } from './network-namespace.ts';
export type { EgressRegistry } from './registry-paths.ts';
export { PROXY_USER_AGENT } from './request-headers.ts';
