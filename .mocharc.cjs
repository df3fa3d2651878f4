// Mocha's settings. `npx mocha test/unit/x.test.ts` runs just the files named, serially in this process:
// mocha would otherwise add them to the whole suite below, not replace it.
//
// The whole suite (`npm test`, `npm run test:integration`) runs its files in three worker processes
// (--parallel --jobs 3) on the two cores it is kept to: its time is company runs, child processes and waits
// (a latency, a lock's expiry, a server's answer), and with two workers the cores stood idle for about a third
// of it (15 min of wall time for 21 min of CPU, 3d8d434): a third worker runs while the others wait. Each file starts what it shares (a registry, Redis, a browser) in its own `before`, on
// free ports and in temp folders of its own, so two files never meet. The longest files start first, so
// that neither worker is left alone with one of them at the end. `npm run test:unit` runs the unit tier
// alone, serially.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

// Runs of the CLI in the test process (test/helpers/in-process.ts) print as a child with NO_COLOR does:
// picocolors decides once, when it is loaded. Mocha's own colours do not read it.
process.env.NO_COLOR = '1';

const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /\.test\.[cm]?[jt]s$/.test(arg));

const TIERS = {
  'test:unit': ['test/unit', 'test/tree'],
  'test:integration': ['test/integration', 'test/security'],
};
const tiers = TIERS[process.env.npm_lifecycle_event] ?? ['test/unit', 'test/tree', 'test/integration', 'test/security'];

/**
 * The files that hold a worker longest, longest first (their wall time in a full parallel run, 2026-11-28):
 * started first, so that none of them starts late and leaves the other workers idle at the end.
 */
const LONGEST = [
  'test/integration/review-browser.test.ts',
  'test/integration/review-workbench.test.ts',
  'test/integration/flags-kept.test.ts',
  'test/integration/kill-resume.test.ts',
  'test/integration/recorded-runs.test.ts',
  'test/security/red-team.test.ts',
  'test/integration/bench.test.ts',
  'test/integration/dependencies.test.ts',
  'test/integration/queue-workers.test.ts',
  'test/integration/queue-faults.test.ts',
  'test/security/install-attack.test.ts',
  'test/integration/local-company.test.ts',
  'test/integration/change-kill-resume-python.test.ts',
  'test/integration/repository-installs.test.ts',
  'test/integration/shared-rate-limits.test.ts',
  'test/integration/change-kill-resume.test.ts',
  'test/integration/eval-change-suite.test.ts',
  'test/integration/clarify.test.ts',
  'test/integration/bench-scale.test.ts',
  'test/integration/review-change.test.ts',
  'test/integration/coverage-resume.test.ts',
  'test/integration/eval-suite.test.ts',
  'test/integration/queue-machines.test.ts',
  'test/integration/approval-gates.test.ts',
  'test/integration/cache-figures.test.ts',
  'test/integration/run-until.test.ts',
  'test/integration/terminal-width.test.ts',
  'test/integration/proxy-and-config.test.ts',
  'test/integration/change-flaky-tests.test.ts',
  'test/integration/cli-json.test.ts',
  'test/integration/budget-record.test.ts',
  'test/integration/change-runner.test.ts',
  'test/integration/change-failures.test.ts',
  'test/integration/change-lifecycle.test.ts',
  'test/integration/chaos-runs.test.ts',
  'test/integration/change-bench.test.ts',
];

const filesUnder = (dir) =>
  fs
    .readdirSync(dir, { recursive: true })
    .filter((file) => /\.test\.ts$/.test(file))
    .map((file) => path.join(dir, file))
    .sort();
const files = tiers.flatMap(filesUnder);
const spec = [...LONGEST.filter((file) => files.includes(file)), ...files.filter((file) => !LONGEST.includes(file))];
const serial = tiers.every((tier) => TIERS['test:unit'].includes(tier));
const startsChildren = named
  ? process.argv.slice(2).some((arg) => /(^|\/)test\/(integration|security)\//.test(arg))
  : tiers.some((tier) => !TIERS['test:unit'].includes(tier));

module.exports = {
  'node-option': ['import=tsx'],
  // The suites that start the CLI as a child run it from dist/, built first (test/helpers/build-once.cjs).
  ...(startsChildren ? { require: ['test/helpers/build-once.cjs'] } : {}),
  ...(named ? {} : { spec, ...(serial ? {} : { parallel: true, jobs: 3 }) }),
  timeout: 60000,
  reporter: 'test/helpers/summary-reporter.cjs',
};
