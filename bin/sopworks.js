#!/usr/bin/env node
// Installed (npm i -g, npx), sopworks runs the JavaScript compiled into dist/ (npm run build, run by
// `npm pack`). In a clone, src/ is there and runs as TypeScript through tsx, a dev dependency, so there is
// no build step between editing src/ and running it.
import fs from 'node:fs';

const fromSource = fs.existsSync(new URL('../src/apps/cli/main.ts', import.meta.url));
if (fromSource) (await import('tsx/esm/api')).register();
const { main } = await import(fromSource ? '../src/apps/cli/main.ts' : '../dist/apps/cli/main.js');
process.exitCode = await main(process.argv);
