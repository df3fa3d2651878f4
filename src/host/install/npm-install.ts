/**
 * What the sandbox runs for an npm install: the Node that runs sopworks starts the host's npm (both by
 * absolute path, resolved before the sandbox starts), and once npm succeeded asks the same npm what it
 * installed (`npm ls --depth=0 --json`: npm's own reading of node_modules against package.json —
 * ranges, tags, `npm:` aliases, optional dependencies; each workspace's own, one level down), then prints
 * the declared dependencies that are missing or at a version outside their range on INSTALLED_CHECK_LINE. npm's exit status is the
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
// npm ls trusts its hidden lockfile over the folders when their times say nothing changed: a package.json
// rewritten after the install (by a postinstall) would go unseen. The folders are read instead.
fs.rmSync('node_modules/.package-lock.json', { force: true });
const ls = spawnSync(process.execPath, [npm, 'ls', '--depth=0', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env });
let tree;
try {
  tree = JSON.parse(ls.stdout);
} catch {
  console.error('sopworks: npm ls did not say what npm installed: ' + String(ls.stderr || ls.error || '').trim().split('\\n')[0]);
  process.exit(1);
}
const path = require('node:path');
const declaredIn = (m) => ({ ...m.optionalDependencies, ...m.devDependencies, ...m.dependencies });
const unmet = [];
const check = (deps, declared, manifest, prefix) => {
  for (const [name, dep] of Object.entries(deps || {}))
    if (dep.missing || dep.invalid) unmet.push({ name: prefix + name, declared: name + '@' + (declared[name] ?? '?'), found: dep.missing ? null : dep.version || null, manifest });
};
const tops = tree.dependencies || {};
check(tops, declaredIn(JSON.parse(fs.readFileSync('package.json', 'utf8'))), 'package.json', '');
// A workspace is a link to a folder of the project: its own dependencies are checked against its manifest.
for (const [name, dep] of Object.entries(tops)) {
  if (!String(dep.resolved || '').startsWith('file:')) continue;
  let folder;
  try { folder = path.relative(process.cwd(), fs.realpathSync(path.join('node_modules', name))); } catch { continue; }
  if (folder === '' || folder.startsWith('..') || path.isAbsolute(folder)) continue;
  check(dep.dependencies, declaredIn(JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'))), folder + '/package.json', name + ' > ');
}
console.log(${JSON.stringify(INSTALLED_CHECK_LINE)} + JSON.stringify(unmet));
`;
