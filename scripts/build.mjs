#!/usr/bin/env node
/**
 * `npm run build` (and `prepack`): the package's JavaScript in dist/, so an installed sopworks runs
 * without a TypeScript compiler. src/ compiles file by file to the same tree under dist/ (relative
 * imports rewritten from .ts to .js), so every path a module finds from its own place — the package
 * root, the viewer's files — is the same from dist/ as from src/. The viewer's browser files are
 * copied beside it — its page and stylesheet, its script bundled from the client's TypeScript by the
 * same function a clone's server bundles it with, and the one mermaid file it serves, so neither
 * esbuild nor mermaid is a dependency of the package.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const require = createRequire(import.meta.url);

// `--if-changed` (the test suite's set-up, test/helpers/build-once.cjs): nothing to do when dist/ was built
// from the same sources — its stamp holds a hash of src/, the build's settings and this script.
const stamp = path.join(dist, '.built-from');
const sourceHash = () => {
  const hash = createHash('sha256');
  const files = fs
    .readdirSync(path.join(root, 'src'), { recursive: true })
    .map((file) => path.join('src', file))
    .concat(['tsconfig.json', 'tsconfig.build.json', path.join('scripts', 'build.mjs'), 'package-lock.json'])
    .sort();
  for (const file of files) {
    const full = path.join(root, file);
    if (!fs.statSync(full, { throwIfNoEntry: false })?.isFile()) continue;
    hash.update(`${file}\0`).update(fs.readFileSync(full)).update('\0');
  }
  return hash.digest('hex');
};
const wanted = process.argv.includes('--if-changed') ? sourceHash() : null;
if (wanted !== null && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) process.exit(0);

fs.rmSync(dist, { recursive: true, force: true });
// typescript's package exports no path to its compiler: it is found beside its package.json.
const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });

const web = path.join('apps', 'review', 'web');
const client = path.join(root, 'src', web, 'client');
// The client's sources and its type-check settings are built, not shipped.
const shipped = (file) => file !== client && !file.startsWith(client + path.sep) && path.basename(file) !== 'tsconfig.json';
fs.cpSync(path.join(root, 'src', web), path.join(dist, web), { recursive: true, filter: shipped });
const { bundleClient } = await import(pathToFileURL(path.join(dist, 'apps', 'review', 'server', 'client-bundle.js')).href);
fs.writeFileSync(path.join(dist, web, 'app.js'), await bundleClient(path.join(client, 'main.ts')));
fs.copyFileSync(require.resolve('mermaid/dist/mermaid.min.js'), path.join(dist, web, 'mermaid.min.js'));
if (wanted !== null) fs.writeFileSync(stamp, wanted);
process.stdout.write(`built ${path.relative(process.cwd(), dist) || dist}/\n`);
