/** host/net: its public face — what other folders may use of it. */
export { type ProxySettings, proxyFor, proxySettings, useEnvironmentProxy } from './proxy.ts';
