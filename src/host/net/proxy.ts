/**
 * HTTPS_PROXY, HTTP_PROXY and NO_PROXY (upper or lower case), as curl and npm read them, for every
 * request sopworks makes through fetch — model calls, the start-up check, `doctor`, `models pull`. Node's
 * fetch ignores them; undici's EnvHttpProxyAgent, set as the global dispatcher, honours them (HTTPS
 * through a CONNECT tunnel, so the proxy sees the host, never the request). Nothing changes when none is set.
 */
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';

export interface ProxySettings {
  httpsProxy: string | null;
  httpProxy: string | null;
  noProxy: string | null;
}

const ProxyUrl = z
  .string()
  .trim()
  .refine((v) => v === '' || /^https?:\/\/[^/\s]+/i.test(v), { message: 'must be a URL such as http://proxy.example.com:3128' })
  .optional();

const ProxyEnv = z.object({
  HTTPS_PROXY: ProxyUrl,
  https_proxy: ProxyUrl,
  HTTP_PROXY: ProxyUrl,
  http_proxy: ProxyUrl,
  NO_PROXY: z.string().optional(),
  no_proxy: z.string().optional(),
});

/** The proxy settings of an environment (the lower-case name wins, as in curl); refuses a proxy that is not a URL. */
export function proxySettings(env: NodeJS.ProcessEnv = process.env): ProxySettings {
  const parsed = ProxyEnv.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new SopworksError('CONFIG_INVALID', `Invalid proxy settings in the environment:\n${issues}`, {
      hint: "Set HTTPS_PROXY (and HTTP_PROXY) to the proxy's URL, e.g. http://proxy.example.com:3128, or unset them.",
    });
  }
  const e = parsed.data;
  const pick = (...values: (string | undefined)[]) => values.map((v) => v?.trim()).find((v) => v) ?? null;
  return { httpsProxy: pick(e.https_proxy, e.HTTPS_PROXY), httpProxy: pick(e.http_proxy, e.HTTP_PROXY), noProxy: pick(e.no_proxy, e.NO_PROXY) };
}

/**
 * Sends this process's fetch requests through the proxies the environment names; returns them. undici
 * is loaded only then: most runs have no proxy, and start-up stays short.
 */
export async function useEnvironmentProxy(env: NodeJS.ProcessEnv = process.env): Promise<ProxySettings> {
  const settings = proxySettings(env);
  if (settings.httpsProxy || settings.httpProxy) {
    const { EnvHttpProxyAgent, setGlobalDispatcher } = await import('undici');
    quietExperimentalWarning();
    setGlobalDispatcher(
      new EnvHttpProxyAgent({
        ...(settings.httpsProxy ? { httpsProxy: settings.httpsProxy } : {}),
        ...(settings.httpProxy ? { httpProxy: settings.httpProxy } : {}),
        ...(settings.noProxy ? { noProxy: settings.noProxy } : {}),
      }),
    );
  }
  return settings;
}

/** Whether a request to `url` goes through a proxy under these settings (NO_PROXY as undici reads it). */
export function proxyFor(url: string, settings: ProxySettings): string | null {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  const proxy = target.protocol === 'https:' ? (settings.httpsProxy ?? settings.httpProxy) : settings.httpProxy;
  if (!proxy) return null;
  const host = target.hostname.toLowerCase();
  const bypassed = (settings.noProxy ?? '')
    .split(/[,\s]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const [name, port] = entry.split(':');
      if (port && port !== (target.port || (target.protocol === 'https:' ? '443' : '80'))) return false;
      const bare = name!.replace(/^\*?\./, '');
      return host === bare || host.endsWith(`.${bare}`);
    });
  return bypassed ? null : proxy;
}

/**
 * undici marks EnvHttpProxyAgent experimental with a process warning on every start; a person behind a
 * proxy would read it on every command. That one warning is dropped; every other is printed as Node does.
 */
function quietExperimentalWarning(): void {
  const printers = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) => {
    if (warning.code === 'UNDICI-EHPA') return;
    for (const print of printers) print(warning);
  });
}
