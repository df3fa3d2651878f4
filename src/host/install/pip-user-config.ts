/**
 * The user's own pip settings that the egress proxy carries: the index (a mirror), the CA bundle and
 * the proxy, from the files pip reads (site-wide, then the user's, then PIP_CONFIG_FILE; [global]
 * then [install]) and `PIP_*` variables, which win. Only http(s) indexes can be carried: a
 * `file://` index or a find-links folder of the user's stays theirs (said in the notes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ini from 'ini';

export interface PipUserConfig {
  indexUrl: { value: string; from: string } | null;
  cert: { value: string; from: string } | null;
  proxy: { value: string; from: string } | null;
  /** Sources of the user's that are not carried (extra indexes, find-links). */
  notCarried: string[];
}

function configFiles(env: NodeJS.ProcessEnv): string[] {
  if (env.PIP_CONFIG_FILE === os.devNull) return [];
  const home = env.HOME ?? os.homedir();
  const xdgDirs = (env.XDG_CONFIG_DIRS || '/etc/xdg').split(':').filter(Boolean);
  const files = [
    ...xdgDirs.map((dir) => path.join(dir, 'pip', 'pip.conf')),
    '/etc/pip.conf',
    path.join(home, '.pip', 'pip.conf'),
    path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'pip', 'pip.conf'),
  ];
  if (env.PIP_CONFIG_FILE) files.push(env.PIP_CONFIG_FILE);
  return files;
}

export function readPipUserConfig(env: NodeJS.ProcessEnv = process.env): PipUserConfig {
  const values = new Map<string, { value: string; from: string }>();
  for (const file of configFiles(env)) {
    let parsed: Record<string, unknown>;
    try {
      parsed = ini.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    for (const section of ['global', 'install']) {
      const entries = parsed[section];
      if (!entries || typeof entries !== 'object') continue;
      for (const [key, value] of Object.entries(entries)) {
        if (typeof value === 'string') values.set(key.replace(/_/g, '-'), { value: value.trim(), from: `${file} [${section}]` });
      }
    }
  }
  const setting = (key: string, variable: string) => {
    const fromEnv = env[variable]?.trim();
    return fromEnv ? { value: fromEnv, from: `$${variable}` } : (values.get(key) ?? null);
  };
  const notCarried: string[] = [];
  for (const [key, variable] of [
    ['extra-index-url', 'PIP_EXTRA_INDEX_URL'],
    ['find-links', 'PIP_FIND_LINKS'],
  ] as const) {
    const entry = setting(key, variable);
    if (entry) notCarried.push(`pip ${key} (${entry.from}): the install uses one index, the configured one`);
  }
  return { indexUrl: setting('index-url', 'PIP_INDEX_URL'), cert: setting('cert', 'PIP_CERT'), proxy: setting('proxy', 'PIP_PROXY'), notCarried };
}
