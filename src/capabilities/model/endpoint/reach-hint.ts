/**
 * What to do when an endpoint cannot be reached, fitted to the endpoint and the network: OpenAI's API
 * (the network or a proxy), a server on this machine or the local network (start it), and a request
 * that went through a proxy (the proxy itself, or NO_PROXY for a local server).
 */
import { type ProxySettings, proxyFor, proxySettings } from '../../../host/net/index.ts';

const LOCAL_HOST =
  /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|[^.]+|.*\.local)$/i;

export function reachHint(baseUrl: string, cause: string, proxies: ProxySettings = proxySettings()): string {
  const url = safeUrl(baseUrl);
  const host = url?.hostname ?? baseUrl;
  const proxy = proxyFor(baseUrl, proxies);
  if (proxy) {
    const shown = redact(proxy);
    if (/407/.test(cause)) return `The proxy ${shown} asks for credentials: put them in its URL (HTTPS_PROXY=http://user:password@host:port).`;
    if (LOCAL_HOST.test(host))
      return `The request went through the proxy ${shown}, which may not reach ${host}: add it to NO_PROXY (NO_PROXY=${host}), and check that the server is running.`;
    return `The request went through the proxy ${shown} (HTTPS_PROXY/HTTP_PROXY): check that the proxy is up and lets ${host} through — one that wants credentials takes them in its URL (http://user:password@host:port) — or set NO_PROXY=${host} to go direct.`;
  }
  if (!url || host === 'api.openai.com') {
    return `Check this machine's network and DNS (${cause}); behind a corporate proxy, set HTTPS_PROXY=http://proxy:port (and NO_PROXY for local servers).`;
  }
  if (LOCAL_HOST.test(host)) {
    return `Start the server and check OPENAI_BASE_URL (host and port): \`ollama serve\` (port 11434), \`vllm serve <model>\` (8000), LM Studio's server (1234), \`llama-server -m <model>.gguf\` (8080).`;
  }
  return `Check OPENAI_BASE_URL (${host}) and this machine's network; behind a proxy, set HTTPS_PROXY=http://proxy:port.`;
}

const safeUrl = (text: string): URL | null => {
  try {
    return new URL(text);
  } catch {
    return null;
  }
};

/** A proxy URL without its password, for messages. */
const redact = (proxy: string): string => {
  const url = safeUrl(proxy);
  if (!url || !url.password) return proxy;
  url.password = '***';
  return url.href.replace(/\/$/, '');
};
