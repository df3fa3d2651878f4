/**
 * The egress proxy and its CA, loaded when an install needs them: their HTTP client (undici) and X.509
 * code (node-forge) are about 140 modules that a run installing nothing never uses.
 */
import type { EgressCa } from './egress-ca.ts';
import type { EgressProxy, startEgressProxy as start } from './egress-proxy.ts';

/** egress-proxy.ts's startEgressProxy, its module loaded on the first call. */
export async function startEgressProxy(...args: Parameters<typeof start>): Promise<EgressProxy> {
  return (await import('./egress-proxy.ts')).startEgressProxy(...args);
}

/** egress-ca.ts's createEgressCa, its module loaded on the first call. */
export async function createEgressCa(): Promise<EgressCa> {
  return (await import('./egress-ca.ts')).createEgressCa();
}
