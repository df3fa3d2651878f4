/**
 * A Yarn repository's own configuration, read as data as a .npmrc is (npmrc-settings.ts):
 *
 * - Yarn 1's `.yarnrc` (`key value` lines, `--install.<flag> value`): the settings that redirect
 *   traffic or credentials, or load code, are overridden — the command line and the environment
 *   outrank the file (manager-commands.ts, manager-install.ts) — and a `yarn-path` (a Yarn of the
 *   repository's own) is never run (YARN_IGNORE_PATH); the rest honoured.
 * - Yarn 2+'s `.yarnrc.yml`: Yarn reads a configuration sopworks writes instead
 *   (manager-install.ts), holding the honoured settings only: the registry, its scopes, proxies,
 *   certificates, tokens, `yarnPath`, `plugins` (code of the repository), the cache's place and the
 *   linker are sopworks' (node_modules: the repository's runners are found where its scripts look).
 */
import { parse } from 'yaml';
import { ManifestProblem } from './manifest-problem.ts';
import { type ConfigSetting, overrideOf } from './npmrc-settings.ts';

const CODE = 'code of the repository (a Yarn of its own, or a plugin), which the install does not run';

/** `.yarnrc` as Yarn 1 reads it: each setting, and the scopes it gives registries of their own. */
export function yarnrcSettings(text: string, scripts: boolean): { settings: ConfigSetting[]; scopes: string[] } {
  const settings: ConfigSetting[] = [];
  const scopes: string[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = /^("(?:[^"\\]|\\.)*"|\S+)\s*(.*)$/.exec(line);
    if (!match) return;
    const key = match[1]!.replace(/^"|"$/g, '');
    const value = match[2]!.replace(/^"|"$/g, '');
    const scope = /^(@[^:]+):registry$/.exec(key)?.[1];
    if (scope) scopes.push(scope);
    const bare = key.replace(/^--(?:[a-z-]+\.)?/, '');
    const why = bare === 'yarn-path' ? CODE : overrideOf(bare, value, scripts);
    const shown = `${key} ${/(_auth|token|password)/i.test(key) ? '…' : value}`;
    settings.push({ file: '.yarnrc', line: index + 1, shown, verdict: why ? 'overridden' : 'honoured', why: why ?? 'honoured' });
  });
  return { settings, scopes };
}

const TRAFFIC = 'packages come only from the configured registry, through the egress proxy';
/** Yarn 2+'s settings that sopworks sets itself, each with why; every other setting is honoured. */
const BERRY_OVERRIDES: Record<string, string> = {
  npmRegistryServer: TRAFFIC,
  npmScopes: TRAFFIC,
  npmRegistries: TRAFFIC,
  npmPublishRegistry: TRAFFIC,
  npmAuthToken: 'not sent: the egress proxy drops every credential the install sends and adds your own',
  npmAuthIdent: 'not sent: the egress proxy drops every credential the install sends and adds your own',
  npmAlwaysAuth: 'not sent: the egress proxy drops every credential the install sends and adds your own',
  httpProxy: "the install's only way out is the egress proxy",
  httpsProxy: "the install's only way out is the egress proxy",
  networkSettings: "the install's only way out is the egress proxy",
  unsafeHttpWhitelist: "the install's only way out is the egress proxy",
  caFilePath: "the install trusts only the egress proxy's certificate",
  httpsCaFilePath: "the install trusts only the egress proxy's certificate",
  httpsCertFilePath: "the install trusts only the egress proxy's certificate",
  httpsKeyFilePath: "the install trusts only the egress proxy's certificate",
  enableStrictSsl: "the install trusts only the egress proxy's certificate",
  yarnPath: CODE,
  plugins: CODE,
  cacheFolder: 'sopworks chooses where the installer keeps its files, inside the sandbox',
  globalFolder: 'sopworks chooses where the installer keeps its files, inside the sandbox',
  enableGlobalCache: 'sopworks chooses where the installer keeps its files, inside the sandbox',
  enableTelemetry: 'the install reaches nothing but the registry',
  enableImmutableInstalls: "the base's lockfile is kept as it is only when the install is told to",
  nodeLinker: "the install lays packages out in node_modules, where the repository's scripts and runners find them",
};

/** `.yarnrc.yml` as Yarn 2+ reads it: each setting's verdict, and the configuration Yarn gets instead. */
export function berrySettings(text: string, scripts: boolean): { settings: ConfigSetting[]; honoured: Record<string, unknown> } {
  let parsed: unknown;
  try {
    parsed = parse(text) ?? {};
  } catch (error) {
    throw new ManifestProblem(`.yarnrc.yml is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ManifestProblem('.yarnrc.yml: it is not a map of settings');
  const lines = text.split('\n');
  const settings: ConfigSetting[] = [];
  const honoured: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const scriptsOn = key === 'enableScripts' && !scripts && value !== false ? "install scripts stay off: the policy's dependencies.scripts" : null;
    const why = BERRY_OVERRIDES[key] ?? scriptsOn;
    if (!why) honoured[key] = value;
    const index = lines.findIndex((line) => new RegExp(`^${key}\\s*:`).test(line));
    const said = /auth|token/i.test(key) ? '…' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    const shown = `${key}: ${said.length > 100 ? `${said.slice(0, 97)}…` : said}`;
    settings.push({ file: '.yarnrc.yml', line: index === -1 ? null : index + 1, shown, verdict: why ? 'overridden' : 'honoured', why: why ?? 'honoured' });
  }
  return { settings, honoured };
}
