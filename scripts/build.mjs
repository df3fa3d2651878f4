#!/usr/bin/env node
/**
 * `npm run build` (and `prepack`): the package's JavaScript in dist/, so an installed sopworks runs
 * without a TypeScript compiler. src/ compiles file by file to the same tree under dist/ (relative
 * imports rewritten from .ts to .js), so every path a module finds from its own place — the package
 * root, the viewer's files — is the same from dist/ as from src/. The viewer's browser files are
 * copied beside it, with the one mermaid file it serves, so mermaid is not a dependency of the package.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const require = createRequire(import.meta.url);

fs.rmSync(dist, { recursive: true, force: true });
// typescript's package exports no path to its compiler: it is found beside its package.json.
const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });

const web = path.join('apps', 'review', 'web');
fs.cpSync(path.join(root, 'src', web), path.join(dist, web), { recursive: true });
fs.copyFileSync(require.resolve('mermaid/dist/mermaid.min.js'), path.join(dist, web, 'mermaid.min.js'));
process.stdout.write(`built ${path.relative(process.cwd(), dist) || dist}/\n`);
