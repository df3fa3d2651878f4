/** host/net: its public face — what other folders may use of it. */
export { proxyFor, proxySettings, type ProxySettings, useEnvironmentProxy } from './proxy.ts';
