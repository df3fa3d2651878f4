/**
 * What the sandbox runs for a pnpm or Yarn install: the Node that runs sopworks starts the manager
 * (from its absolute path outside the project: manager-program.ts) with the environment the
 * egress-controlled install needs — the environment outranks a repository's .npmrc and .yarnrc, and
 * a Yarn 2+ reads the configuration sopworks wrote for it in the sandbox's HOME instead of the
 * repository's .yarnrc.yml (its honoured settings only, the registry and the way out sopworks' own) — and exits with its
 * status. What it installed is checked by the host afterwards (node-installed-check.ts). Plain
 * JavaScript in a string: it runs as `node -e` inside the sandbox.
 */
import { NPM_OVERRIDES } from './npm-install.ts';

/** argv: <manager> <settings JSON: { env, yarnrc, node }> <entry> <arguments…>. */
export const MANAGER_INSTALL = `
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const [manager, given, entry, ...args] = process.argv.slice(1);
const settings = JSON.parse(given);
${NPM_OVERRIDES}
const proxy = process.env.HTTPS_PROXY;
if (manager === 'pnpm') {
  Object.assign(env, {
    npm_config_store_dir: home + '/.pnpm-store', npm_config_cache_dir: home + '/.cache/pnpm', npm_config_state_dir: home + '/.local/state/pnpm',
    npm_config_global_dir: home + '/.local/share/pnpm/global', npm_config_no_proxy: 'sopworks.invalid', npm_config_verify_deps_before_run: 'false',
  });
  if (proxy) env.npm_config_http_proxy = process.env.HTTP_PROXY;
} else {
  // A repository's yarnPath (a Yarn of its own, committed) is never run: this Yarn is the installer.
  Object.assign(env, { YARN_IGNORE_PATH: '1', YARN_ENABLE_TELEMETRY: '0', YARN_ENABLE_PROGRESS_BARS: 'false', YARN_CACHE_FOLDER: home + '/.yarn-cache' });
  if (manager === 'yarn-berry') {
    Object.assign(env, { YARN_ENABLE_GLOBAL_CACHE: 'true', YARN_GLOBAL_FOLDER: home + '/.yarn-berry', YARN_ENABLE_STRICT_SSL: 'true', YARN_NODE_LINKER: 'node-modules' });
    if (proxy) Object.assign(env, { YARN_HTTP_PROXY: process.env.HTTP_PROXY, YARN_HTTPS_PROXY: proxy });
    if (process.env.npm_config_cafile) env.YARN_HTTPS_CA_FILE_PATH = process.env.npm_config_cafile;
    const registry = new URL(settings.env.YARN_NPM_REGISTRY_SERVER);
    if (registry.protocol === 'http:') env.YARN_UNSAFE_HTTP_WHITELIST = registry.hostname;
    // Yarn reads its HOME's .yarnrc.yml (this one, in the sandbox's empty HOME), and looks for YARN_RC_FILENAME
    // in the project and its parents: a name the repository cannot guess, so none of its files is read.
    fs.writeFileSync(path.join(home, '.yarnrc.yml'), JSON.stringify(settings.yarnrc || {}));
    env.YARN_RC_FILENAME = '.sopworks-none-' + require('node:crypto').randomBytes(12).toString('hex') + '.yml';
  }
}
Object.assign(env, settings.env);
const run = spawnSync(settings.node ? process.execPath : entry, settings.node ? [entry, ...args] : args, { stdio: 'inherit', env });
if (run.error) console.error('sopworks: could not start ' + manager + ': ' + run.error.message);
process.exit(run.status ?? 1);
`;
