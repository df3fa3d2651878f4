#!/usr/bin/env node
// The CLI as the tests start it in a child process: bin/sopworks.js's two lines, on the JavaScript built
// into dist/ from src/ before the tests ran (test/helpers/build-once.cjs) — what an installed sopworks runs.
// bin/sopworks.js itself runs src/ through tsx in a clone; test/integration/cli-bin.test.ts starts it so.
const { main } = await import('../../dist/apps/cli/main.js');
process.exitCode = await main(process.argv);
