#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so there is no build step between editing src/ and running it.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/apps/cli/main.ts');
process.exitCode = await main(process.argv);
