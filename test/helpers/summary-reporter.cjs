// Mocha's spec reporter, plus a last line "N passed, N failed" that CI reads.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Mocha = require('mocha');

const { Spec } = Mocha.reporters;
const { EVENT_RUN_END } = Mocha.Runner.constants;

/**
 * The suites skipped for a missing system package (test/helpers/system-requirements.ts): those of this
 * process, and those its parallel workers wrote to the file named here before they started.
 */
function skippedSuites(file) {
  const skipped = new Map(globalThis[Symbol.for('sopworks.skippedSystemSuites')] ?? []);
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  for (const line of lines) {
    const { name, install, reason, suite } = JSON.parse(line);
    const entry = skipped.get(name) ?? { install, reason, suites: [] };
    if (!entry.suites.includes(suite)) entry.suites.push(suite);
    skipped.set(name, entry);
  }
  fs.rmSync(file, { force: true });
  return skipped;
}

class SummaryReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = path.join(os.tmpdir(), `sopworks-skipped-suites-${process.pid}.jsonl`);
    fs.rmSync(file, { force: true });
    process.env.SOPWORKS_SKIPPED_FILE = file;
    runner.once(EVENT_RUN_END, () => {
      const { passes = 0, failures = 0, pending = 0 } = runner.stats ?? {};
      // Suites skipped for a missing system package: said loudly.
      const skipped = skippedSuites(file);
      if (skipped.size > 0) {
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
