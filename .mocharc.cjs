// Mocha's settings. `npx mocha test/unit/x.test.ts` runs just the files named: mocha would otherwise add
// them to the whole suite below, not replace it.
'use strict';
// Runs of the CLI in the test process (test/helpers/in-process.ts) print as a child with NO_COLOR does:
// picocolors decides once, when it is loaded. Mocha's own colours do not read it.
process.env.NO_COLOR = '1';
const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /\.test\.[cm]?[jt]s$/.test(arg));

module.exports = {
  'node-option': ['import=tsx'],
  ...(named ? {} : { spec: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/security/**/*.test.ts'] }),
  timeout: 60000,
  reporter: 'test/helpers/summary-reporter.cjs',
};
