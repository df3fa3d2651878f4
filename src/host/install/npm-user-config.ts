/**
 * The user's own npm configuration, read the way npm layers it — the global npmrc, then the user's
 * (~/.npmrc), then `npm_config_*` variables — with npm's own INI parser and `${VAR}` expansion. Never a
 * project's .npmrc: that one is the generated code's (and refused, manifest-refusals.ts). What is
 * read here is carried by the egress proxy on the host; none of it enters the sandbox.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ini from 'ini';
import type { Credential } from '../egress/index.ts';

export interface NpmUserConfig {
  /** Every key, later layers winning, each with the file (or variable) it came from. */
  values: Map<string, { value: unknown; from: string }>;
  credentials: Credential[];
}

function expand(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string')
    return value.replace(/(\\*)\$\{([^${}?]+)(\?)?\}/g, (whole, slashes: string, name: string) =>
      slashes.length % 2 ? whole : `${slashes}${env[name] ?? ''}`,
    );
  if (Array.isArray(value)) return value.map((item) => expand(item, env));
  return value;
}

/** Where npm's global npmrc is: `npm_config_globalconfig`, else `<prefix>/etc/npmrc`. */
function globalConfigFile(env: NodeJS.ProcessEnv): string {
  const named = env.npm_config_globalconfig ?? env.NPM_CONFIG_GLOBALCONFIG;
  if (named) return named;
  const prefix = env.npm_config_prefix ?? env.NPM_CONFIG_PREFIX ?? path.dirname(path.dirname(fs.realpathSync(process.execPath)));
  return path.join(prefix, 'etc', 'npmrc');
}

function userConfigFile(env: NodeJS.ProcessEnv): string {
  return env.npm_config_userconfig ?? env.NPM_CONFIG_USERCONFIG ?? path.join(env.HOME ?? os.homedir(), '.npmrc');
}

export function readNpmUserConfig(env: NodeJS.ProcessEnv = process.env): NpmUserConfig {
  const values = new Map<string, { value: unknown; from: string }>();
  for (const file of [globalConfigFile(env), userConfigFile(env)]) {
    if (file === '/dev/null') continue;
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const [key, value] of Object.entries(ini.parse(text))) values.set(key, { value: expand(value, env), from: file });
  }
  for (const [name, value] of Object.entries(env)) {
    const match = /^npm_config_(.+)$/i.exec(name);
    if (!match || value === undefined || value === '') continue;
    // npm turns npm_config_https_proxy into https-proxy; keys starting with // are taken as written.
    const key = match[1]!.startsWith('//') ? match[1]! : match[1]!.toLowerCase().replace(/_/g, '-');
    values.set(key, { value: expand(value, env), from: `$${name}` });
  }
  return { values, credentials: credentialsOf(values) };
}

/** `//host/path/:_authToken`, `:_auth`, `:username` + `:_password` (base64), as npm reads them. */
function credentialsOf(values: NpmUserConfig['values']): Credential[] {
  const byPrefix = new Map<string, Record<string, { value: string; from: string }>>();
  for (const [key, { value, from }] of values) {
    const match = /^(\/\/.+\/):(_authToken|_auth|username|_password)$/.exec(key);
    if (!match || typeof value !== 'string') continue;
    const entry = byPrefix.get(match[1]!) ?? {};
    entry[match[2]!] = { value, from };
    byPrefix.set(match[1]!, entry);
  }
  const credentials: Credential[] = [];
  for (const [prefix, entry] of byPrefix) {
    if (entry._authToken) credentials.push({ prefix, authorization: `Bearer ${entry._authToken.value}`, from: entry._authToken.from });
    else if (entry._auth) credentials.push({ prefix, authorization: `Basic ${entry._auth.value}`, from: entry._auth.from });
    else if (entry.username && entry._password) {
      const password = Buffer.from(entry._password.value, 'base64').toString('utf8');
      const basic = Buffer.from(`${entry.username.value}:${password}`).toString('base64');
      credentials.push({ prefix, authorization: `Basic ${basic}`, from: entry.username.from });
    }
  }
  return credentials;
}

/** A string setting, or null. */
export function npmSetting(config: NpmUserConfig, key: string): { value: string; from: string } | null {
  const entry = config.values.get(key);
  return entry && typeof entry.value === 'string' && entry.value !== '' ? { value: entry.value, from: entry.from } : null;
}
