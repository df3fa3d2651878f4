// Mocha's settings. `npx mocha test/unit/x.test.ts` runs just the files named: mocha would otherwise add
// them to the whole suite below, not replace it.
'use strict';
const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /\.test\.[cm]?[jt]s$/.test(arg));

module.exports = {
  'node-option': ['import=tsx'],
  ...(named ? {} : { spec: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'] }),
  timeout: 60000,
  reporter: 'test/helpers/summary-reporter.cjs',
};
