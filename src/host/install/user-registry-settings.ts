/**
 * What of the user's own registry settings the egress proxy carries upstream: the registry or index
 * they configured (a mirror), the CA certificates they trust (npm's `cafile`/`ca`,
 * NODE_EXTRA_CA_CERTS, pip's `cert`), their proxy (npm's `proxy`/`https-proxy`/`noproxy`, pip's
 * `proxy`, else HTTPS_PROXY/HTTP_PROXY/NO_PROXY as sopworks reads them everywhere) and their registry credentials (npm's `//host/:_authToken` and
 * kin, a user:password in an index URL). All of it stays in this process: the sandbox gets the
 * registry's address without credentials, and the proxy's one-step CA.
 */
import fs from 'node:fs';
import type { Credential, UpstreamSettings } from '../egress/index.ts';
import { proxySettings } from '../net/index.ts';
import { npmSetting, readNpmUserConfig } from './npm-user-config.ts';
import { readPipUserConfig } from './pip-user-config.ts';

export interface Setting {
  value: string;
  from: string;
}

export interface UserRegistrySettings {
  /** The user's npm registry when they set one (a mirror); null: npm's default. */
  npmRegistry: Setting | null;
  /** The user's pip index when they set one; null: pip's default. */
  pipIndex: Setting | null;
  upstream: UpstreamSettings;
  /** What was found but is not carried, said in the install's report. */
  notes: string[];
}

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export function readUserRegistrySettings(env: NodeJS.ProcessEnv = process.env): UserRegistrySettings {
  const npm = readNpmUserConfig(env);
  const fromEnvironment = proxySettings(env);
  const pip = readPipUserConfig(env);
  const notes = [...pip.notCarried];
  const ca: UpstreamSettings['ca'] = [];
  const addPems = (text: string, from: string) => {
    for (const pem of text.match(PEM) ?? []) if (!ca.some((entry) => entry.pem === pem)) ca.push({ pem, from });
  };
  const addFile = (file: string | undefined, from: string) => {
    if (!file) return;
    try {
      addPems(fs.readFileSync(file, 'utf8'), from);
    } catch (error) {
      notes.push(`${from} names ${file}, which could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): not trusted`);
    }
  };
  const cafile = npmSetting(npm, 'cafile');
  addFile(cafile?.value, `npm cafile (${cafile?.from})`);
  const inlineCa = npm.values.get('ca');
  for (const text of [inlineCa?.value].flat()) if (typeof text === 'string') addPems(text.replace(/\\n/g, '\n'), `npm ca (${inlineCa!.from})`);
  addFile(env.NODE_EXTRA_CA_CERTS, '$NODE_EXTRA_CA_CERTS');
  if (pip.cert) addFile(pip.cert.value, `pip cert (${pip.cert.from})`);
  if (npmSetting(npm, 'strict-ssl')?.value === 'false' || npm.values.get('strict-ssl')?.value === false) {
    notes.push("npm strict-ssl=false is not carried: the egress proxy always verifies the registry's certificate");
  }
  for (const key of npm.values.keys())
    if (/^@[^/]+:registry$/.test(key)) notes.push(`npm ${key} is not carried: every package comes from the one configured registry`);

  const credentials: Credential[] = [...npm.credentials];
  const first = (...candidates: (string | undefined | null)[]) => candidates.find((value) => value?.trim())?.trim() ?? null;
  const npmRegistry = npmSetting(npm, 'registry');
  const pipIndex = pip.indexUrl && /^https?:/i.test(pip.indexUrl.value) ? pip.indexUrl : null;
  if (pip.indexUrl && !pipIndex) notes.push(`pip index-url ${pip.indexUrl.value} (${pip.indexUrl.from}) is not http(s): not carried`);
  return {
    npmRegistry: npmRegistry && npmRegistry.value.replace(/\/?$/, '/') !== 'https://registry.npmjs.org/' ? npmRegistry : null,
    pipIndex,
    upstream: {
      ca,
      proxy: {
        httpsProxy: first(npmSetting(npm, 'https-proxy')?.value, pip.proxy?.value, fromEnvironment.httpsProxy),
        httpProxy: first(npmSetting(npm, 'proxy')?.value, pip.proxy?.value, fromEnvironment.httpProxy),
        noProxy: first(npmSetting(npm, 'noproxy')?.value, fromEnvironment.noProxy),
      },
      credentials,
    },
    notes,
  };
}

/**
 * A registry URL as the sandbox may see it — without `user:password@` — and the credential the proxy
 * adds instead (for every URL of that host).
 */
export function withoutCredentials(url: string, from: string): { url: string; credential: Credential | null } {
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { url, credential: null };
  const basic = Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64');
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), credential: { prefix: `//${parsed.host}/`, authorization: `Basic ${basic}`, from } };
}
