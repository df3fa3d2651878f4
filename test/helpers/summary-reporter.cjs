// Mocha's spec reporter, plus a last line "N passed, N failed" that CI reads.
'use strict';
const Mocha = require('mocha');

const { Spec } = Mocha.reporters;
const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const { passes = 0, failures = 0, pending = 0 } = runner.stats ?? {};
      // Suites skipped for a missing system package (test/helpers/system-requirements.ts): said loudly.
      const skipped = globalThis[Symbol.for('sopworks.skippedSystemSuites')];
      if (skipped && skipped.size > 0) {
        process.stdout.write('\nSKIPPED for missing system packages (required when CI=true):\n');
        for (const [name, { install, reason, suites }] of skipped) {
          process.stdout.write(`  ${name} (${reason}): ${suites.length} suite(s) skipped — install with: ${install}\n`);
        }
      }
      process.stdout.write(`\n${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
    });
  }
}

module.exports = SummaryReporter;
