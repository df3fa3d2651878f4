/**
 * A repository's own `.npmrc`, read as data (npm and pnpm read it whatever they are told): never a
 * reason to refuse the install. Each setting is judged by what it does:
 *
 * - settings that choose where traffic goes, what is trusted or which credential is sent — the
 *   registry and scope registries, proxies, certificates, tokens — and where the installer keeps its
 *   files or which code of the repository it loads are **overridden** by the egress-controlled ones
 *   (the command line and the environment outrank a project's .npmrc: npm-install.ts sets them), and
 *   named in the report;
 * - everything else — `ignore-scripts=true`, `package-lock=false`, `engine-strict`, `legacy-peer-deps`,
 *   a pnpm linker setting — shapes what the installer does inside the sandbox and is **honoured**.
 *
 * Whatever a setting says, the egress proxy stays the install's only way out, and drops every
 * credential the sandbox sends.
 */
import ini from 'ini';
import { escapeRegExp } from '../../ground/files/index.ts';

export interface ConfigSetting {
  file: string;
  line: number | null;
  /** The line as a person reads it, a secret's value left out. */
  shown: string;
  verdict: 'honoured' | 'overridden';
  why: string;
}

const TRAFFIC = 'packages come only from the configured registry, through the egress proxy';
const WAY_OUT = "the install's only way out is the egress proxy";
const TRUST = "the install trusts only the egress proxy's certificate (your own certificates are carried by the proxy)";
const CREDENTIAL = 'not sent: the egress proxy drops every credential the install sends and adds your own for the configured registry';
const PLACES = 'sopworks chooses where the installer keeps its files, inside the sandbox';
const CODE = 'a pnpmfile is code of the repository (a config dependency carries one), which the install does not load';

/** What overriding a key (npm's and pnpm's kebab-case names) means, or null when the setting is honoured. */
export function overrideOf(key: string, value: unknown, scripts: boolean): string | null {
  if (/^(registry|registries|replace-registry-host)$/.test(key) || /^@[^:]+:registry$/.test(key)) return TRAFFIC;
  if (/^(https?-proxy|proxy|no-?proxy)$/.test(key)) return WAY_OUT;
  if (/^(cafile|ca|cert|key|strict-ssl)$/.test(key) || /^\/\/.*:(certfile|keyfile|cafile)$/.test(key)) return TRUST;
  if (key.startsWith('//') || /^(_auth|_authToken|_password|username|email|always-auth|otp)$/.test(key)) return CREDENTIAL;
  if (/^(cache|cache-dir|store-dir|state-dir|global-dir|global-bin-dir|prefix|global|location|userconfig|globalconfig|npm-globalconfig)$/.test(key))
    return PLACES;
  if (/^(manage-package-manager-versions|package-manager-strict|package-manager-strict-version)$/.test(key))
    return 'sopworks chooses the package manager (its version from the packageManager field)';
  if (/^(pnpmfile|global-pnpmfile|ignore-pnpmfile|config-dependencies)$/.test(key)) return CODE;
  if (/^(use-node-version|execution-env)$/.test(key)) return 'sopworks runs the install with its own Node, and fetches no other';
  if (key === 'ignore-scripts' && !scripts && String(value) !== 'true') return "install scripts stay off: the policy's dependencies.scripts";
  if (/^(dangerously-allow-all-builds|enable-scripts)$/.test(key) && !scripts && ![false, 'false'].includes(value as string | boolean))
    return "install scripts stay off: the policy's dependencies.scripts";
  return null;
}

const SECRET_VALUE = /^(\/\/.*:)?(_auth|_authToken|_password|otp)$/;

/** Every setting of a project `.npmrc`, with what the install does with it. */
export function npmrcSettings(text: string, scripts: boolean, file = '.npmrc'): ConfigSetting[] {
  const settings: ConfigSetting[] = [];
  for (const [key, value] of Object.entries(ini.parse(text))) {
    const why = overrideOf(key, value, scripts);
    const said = Array.isArray(value) ? value.join(',') : value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
    const shown = `${key}=${SECRET_VALUE.test(key) ? '…' : said}`;
    settings.push({ file, line: settingLine(text, key), shown, verdict: why ? 'overridden' : 'honoured', why: why ?? 'honoured' });
  }
  return settings;
}

/** The 1-based line that sets `key` (`key=…`, `key = …`); null when none does (a section's key). */
function settingLine(text: string, key: string): number | null {
  const pattern = new RegExp(`^\\s*${escapeRegExp(key)}\\s*(=|$)`);
  const index = text.split('\n').findIndex((line) => pattern.test(line));
  return index === -1 ? null : index + 1;
}

/** The scopes a `.npmrc` gives a registry of their own (`@scope:registry`): each is pointed at the configured registry. */
export function registryScopes(text: string): string[] {
  return Object.keys(ini.parse(text))
    .map((key) => /^(@[^:]+):registry$/.exec(key)?.[1])
    .filter((scope): scope is string => scope !== undefined);
}

/** A setting as a line of the install's report. */
export function describeSetting(setting: ConfigSetting): string {
  const where = setting.line === null ? setting.file : `${setting.file}:${setting.line}`;
  return setting.verdict === 'honoured' ? `${where}: ${setting.shown} — honoured` : `${where}: ${setting.shown} — overridden: ${setting.why}`;
}
