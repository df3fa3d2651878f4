/**
 * The counts and failing tests of vitest, jest, mocha, `go test` and `cargo test`, read from the output
 * each printed (captured from the runners themselves on a three-test file: one passes, one fails, one is
 * skipped; colour codes taken out as a test round does) — and a run that found no test said as 0 of each,
 * never as a pass.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseTestOutput } from '../../../../src/capabilities/test-round/parse-test-output.ts';
import { ROOT } from '../../../helpers/paths.ts';

const VITEST = [
  '',
  ' RUN  v4.1.12 /work/colours',
  '',
  ' ❯ v.test.mjs (3 tests | 1 failed | 1 skipped) 7ms',
  '     ✓ adds 1ms',
  '     × fails 4ms',
  '     ↓ skipped',
  '',
  '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
  '',
  ' FAIL  v.test.mjs > math > fails',
  'AssertionError: expected 4 to be 5 // Object.is equality',
  '',
  ' Test Files  1 failed (1)',
  '      Tests  1 failed | 1 passed | 1 skipped (3)',
  '   Start at  09:24:22',
  '   Duration  680ms (transform 58ms, setup 0ms, import 81ms, tests 7ms, environment 0ms)',
  '',
].join('\n');

const JEST = [
  'FAIL ./j.test.js',
  '  math',
  '    ✓ adds (34 ms)',
  '    ✕ fails (5 ms)',
  '    ○ skipped skipped',
  '',
  '  ● math › fails',
  '',
  '    expect(received).toBe(expected) // Object.is equality',
  '',
  '    Expected: 5',
  '',
  'FAIL ./esm.test.js',
  '  ● Test suite failed to run',
  '',
  '    Must use import to load ES Module: ./esm.test.js',
  '',
  'Test Suites: 2 failed, 2 total',
  'Tests:       1 failed, 1 skipped, 1 passed, 3 total',
  'Time:        1.373 s',
].join('\n');

const MOCHA = [
  '',
  '  math',
  '    ✔ adds',
  '    1) fails',
  '    - skipped',
  '',
  '  1 passing (3ms)',
  '  1 pending',
  '  1 failing',
  '',
  '  1) math',
  '       fails:',
  '',
  '      AssertionError [ERR_ASSERTION]: 4 == 5',
  '      + expected - actual',
  '',
].join('\n');

const GO = '--- FAIL: TestFail (0.00s)\n    a_test.go:6: want 5 got 4\nFAIL\nFAIL\texample.com/m/a\t0.004s\n?   \texample.com/m/b\t[no test files]\nFAIL\n';
const GO_VERBOSE =
  '=== RUN   TestAdd\n--- PASS: TestAdd (0.00s)\n=== RUN   TestFail\n    a_test.go:6: want 5 got 4\n--- FAIL: TestFail (0.00s)\nFAIL\nFAIL\texample.com/m/a\t0.009s\n';

const CARGO = [
  'running 3 tests',
  'test tests::adds ... ok',
  'test tests::skipped ... ignored',
  'test tests::fails ... FAILED',
  '',
  'failures:',
  '',
  '---- tests::fails stdout ----',
  '',
  "thread 'tests::fails' panicked at src/lib.rs:6:26:",
  'assertion `left == right` failed',
  '',
  'test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.23s',
  '',
  'running 0 tests',
  '',
  'test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
].join('\n');

describe('counts of vitest, jest, mocha, jasmine, go test and cargo test', () => {
  it('reads vitest', () => {
    assert.deepEqual(parseTestOutput(VITEST), {
      counts: { passed: 1, failed: 1 },
      failures: [{ name: 'v.test.mjs > math > fails', message: 'AssertionError: expected 4 to be 5 // Object.is equality' }],
      skipped: 1,
    });
  });

  it("reads vitest's failures that share one error: each test its name, each the error under their headers", () => {
    // vitest 3.2.7's own output (--reporter=verbose): three tests failing with the same assertion are
    // listed as three FAIL headers over one error, then a timeout and another error of their own.
    const parsed = parseTestOutput(fs.readFileSync(path.join(ROOT, 'test/fixtures/test-output/vitest-verbose-grouped.txt'), 'utf8'));
    assert.deepEqual(parsed.counts, { passed: 1, failed: 5 });
    const same = "AssertionError: expected 'vulnerable' to be 'safe' // Object.is equality";
    assert.deepEqual(parsed.failures, [
      { name: 'src/a.spec.ts > grouped > same error 1', message: same },
      { name: 'src/a.spec.ts > grouped > same error 2', message: same },
      { name: 'src/a.spec.ts > grouped > same error 3', message: same },
      { name: 'src/a.spec.ts > grouped > times out', message: 'Error: Test timed out in 50ms.' },
      { name: 'src/a.spec.ts > grouped > another error', message: 'AssertionError: expected [ 1 ] to deeply equal [ 2 ]' },
    ]);
  });

  it('reads jest, a file that could not load named by its file', () => {
    const parsed = parseTestOutput(JEST);
    assert.deepEqual(parsed.counts, { passed: 1, failed: 1 });
    assert.deepEqual(parsed.failures, [
      { name: 'math › fails', message: 'expect(received).toBe(expected) // Object.is equality' },
      { name: './esm.test.js: Test suite failed to run', message: 'Must use import to load ES Module: ./esm.test.js' },
    ]);
  });

  it("reads mocha's spec reporter, from its failures section only", () => {
    assert.deepEqual(parseTestOutput(MOCHA), {
      counts: { passed: 1, failed: 1 },
      failures: [{ name: 'math fails', message: 'AssertionError [ERR_ASSERTION]: 4 == 5' }],
      skipped: 1,
    });
  });

  it('reads go test from its listing (test-cases/go-test.ts), its failures named', () => {
    assert.deepEqual(
      parseTestOutput(GO).failures.map((f) => f.name),
      ['TestFail'],
    );
    assert.deepEqual(parseTestOutput(GO_VERBOSE).counts, { passed: 1, failed: 1 });
  });

  it('reads cargo test, summed over its test binaries', () => {
    const parsed = parseTestOutput(CARGO);
    assert.deepEqual(parsed.counts, { passed: 1, failed: 1 });
    assert.equal(parsed.failures[0]!.name, 'tests::fails');
    assert.match(parsed.failures[0]!.message, /assertion `left == right` failed/);
  });

  it("reads jasmine's default reporter: specs less failures and pending, each failure with its message", () => {
    const parsed = parseTestOutput(fs.readFileSync(path.join(ROOT, 'test/fixtures/test-output/jasmine-failing.txt'), 'utf8'));
    assert.deepEqual(parsed.counts, { passed: 2, failed: 1 });
    assert.equal(parsed.skipped, 1);
    assert.deepEqual(parsed.failures, [{ name: 'AC-1: counts words lowercases words', message: "Expected 'A' to be 'a'." }]);
  });

  it('says a run that found no test as 0 passed and 0 failed, whatever the runner', () => {
    const none = { counts: { passed: 0, failed: 0 }, failures: [] };
    for (const output of [
      '\n RUN  v4.1.12 /p\n\nNo test files found, exiting with code 1\n',
      'No tests found, exiting with code 1\nRun with `--passWithNoTests` to exit with code 0\n',
      'Error: No test files found: "test"\n',
      '?   \texample.com/m/a\t[no test files]\n?   \texample.com/m/b\t[no test files]\n',
      'ok  \texample.com/m/a\t0.002s [no tests to run]\n',
      'running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n',
      '\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nOK\n',
      '\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n',
      '============================ no tests ran in 0.01s =============================\n',
      'TAP version 13\n1..0\n# tests 0\n# suites 0\n# pass 0\n# fail 0\n',
      'Randomized with seed 1\nStarted\n\n\nNo specs found\nFinished in 0.003 seconds\n',
    ]) {
      assert.deepEqual(parseTestOutput(output), none, output);
    }
  });
});
