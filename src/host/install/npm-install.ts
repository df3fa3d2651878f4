/**
 * What the sandbox runs for an npm install: the Node that runs sopworks starts the host's npm (both by
 * absolute path, resolved before the sandbox starts), and once npm succeeded asks the same npm what it
 * installed (`npm ls --depth=0 --json`: npm's own reading of node_modules against package.json —
 * ranges, tags, `npm:` aliases, optional dependencies), then prints the declared dependencies that are
 * missing or at a version outside their range on INSTALLED_CHECK_LINE. npm's exit status is the
 * install's. Plain JavaScript in a string: it runs as `node -e` inside the sandbox.
 */
import { INSTALLED_CHECK_LINE } from './python-install.ts';

/**
 * The environment's settings outrank a project's .npmrc (npmrc-settings.ts): the way out (the
 * forwarder's proxy, no host bypassing it), the proxy's certificate as the only one trusted, the
 * installer's cache in the sandbox's HOME, never a global install.
 */
export const NPM_OVERRIDES = `
const home = process.env.HOME;
const env = { ...process.env, npm_config_noproxy: 'sopworks.invalid', npm_config_cache: home + '/.npm', npm_config_global: 'false' };
if (process.env.HTTPS_PROXY) Object.assign(env, { npm_config_proxy: process.env.HTTP_PROXY, npm_config_https_proxy: process.env.HTTPS_PROXY });
if (process.env.npm_config_cafile) env.npm_config_ca = require('node:fs').readFileSync(process.env.npm_config_cafile, 'utf8');
`;

/** argv: <npm-cli.js> <npm arguments…>. */
export const NPM_INSTALL = `
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const [npm, ...args] = process.argv.slice(1);
${NPM_OVERRIDES}
const installed = spawnSync(process.execPath, [npm, ...args], { stdio: 'inherit', env });
if (installed.status !== 0) process.exit(installed.status ?? 1);
const ls = spawnSync(process.execPath, [npm, 'ls', '--depth=0', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env });
let tree;
try {
  tree = JSON.parse(ls.stdout);
} catch {
  console.error('sopworks: npm ls did not say what npm installed: ' + String(ls.stderr || ls.error || '').trim().split('\\n')[0]);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const declared = { ...manifest.optionalDependencies, ...manifest.devDependencies, ...manifest.dependencies };
const unmet = Object.entries(tree.dependencies || {})
  .filter(([, dep]) => dep.missing || dep.invalid)
  .map(([name, dep]) => ({ name, declared: name + '@' + (declared[name] ?? '?'), found: dep.missing ? null : dep.version || null }));
console.log(${JSON.stringify(INSTALLED_CHECK_LINE)} + JSON.stringify(unmet));
`;
