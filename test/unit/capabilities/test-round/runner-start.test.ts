/**
 * A base whose tests could not even be loaded (src/capabilities/test-round/runner-start.ts) stops the
 * change before any code is written, naming the first import error — in the outputs real runners print:
 * pytest collecting a src-layout package that was never installed (python-humanize's, from a trial),
 * unittest's _FailedTest per module, jest's "Test suite failed to run". A run where one test passed is
 * a run.
 */
import assert from 'node:assert/strict';
import { parseTestOutput } from '../../../../src/capabilities/test-round/parse-test-output.ts';
import { runnerStart } from '../../../../src/capabilities/test-round/runner-start.ts';

const start = (output: string, exitCode = 1) => runnerStart(parseTestOutput(output), exitCode, output);

const PYTEST = [
  '============================= test session starts ==============================',
  'collecting ... collected 0 items / 2 errors',
  '',
  '==================================== ERRORS ====================================',
  '__________________ ERROR collecting tests/test_filesize.py ___________________',
  "ImportError while importing test module './tests/test_filesize.py'.",
  'tests/test_filesize.py:9: in <module>',
  '    import humanize',
  "E   ModuleNotFoundError: No module named 'humanize'",
  '_____________________ ERROR collecting tests/test_i18n.py ______________________',
  "E   ModuleNotFoundError: No module named 'freezegun'",
  '=========================== short test summary info ============================',
  'ERROR tests/test_filesize.py',
  'ERROR tests/test_i18n.py',
  '!!!!!!!!!!!!!!!!!!! Interrupted: 2 errors during collection !!!!!!!!!!!!!!!!!!!!',
  '============================== 2 errors in 0.21s ===============================',
].join('\n');

const UNITTEST = [
  'test_colours (unittest.loader._FailedTest.test_colours) ... ERROR',
  '',
  '======================================================================',
  'ERROR: test_colours (unittest.loader._FailedTest.test_colours)',
  '----------------------------------------------------------------------',
  'ImportError: Failed to import test module: test_colours',
  'Traceback (most recent call last):',
  "ModuleNotFoundError: No module named 'colours'",
  '',
  '----------------------------------------------------------------------',
  'Ran 1 test in 0.000s',
  '',
  'FAILED (errors=1)',
].join('\n');

const JEST = [
  ' FAIL  packages/git/src/index.test.ts',
  '  ● Test suite failed to run',
  '',
  "    Cannot find module '@changesets/write' from 'packages/git/src/index.test.ts'",
  '',
  'Test Suites: 1 failed, 1 total',
  'Tests:       0 total',
  'Snapshots:   0 total',
].join('\n');

describe('a base whose tests could not be loaded', () => {
  it("names pytest's first import error when no test file could be collected", () => {
    assert.deepEqual(start(PYTEST, 2), { started: false, line: "no test could be loaded, so none ran: ModuleNotFoundError: No module named 'humanize'" });
  });

  it("names unittest's and jest's, each from its own output", () => {
    assert.deepEqual(start(UNITTEST), { started: false, line: "no test could be loaded, so none ran: ModuleNotFoundError: No module named 'colours'" });
    assert.deepEqual(start(JEST), { started: false, line: "no test could be loaded, so none ran: Cannot find module '@changesets/write'" });
  });

  it('is a run when a test passed, or when a test failed on its own', () => {
    const some = PYTEST.replace('collected 0 items / 2 errors', 'collected 4 items / 2 errors').replace('2 errors in 0.21s', '4 passed, 2 errors in 0.21s');
    assert.equal(start(some, 1).started, true);
    const failing = 'FAIL: test_x (tests.test_a.T.test_x)\nAssertionError: 1 != 2\nRan 1 test in 0.001s\n\nFAILED (failures=1)\n';
    assert.equal(start(failing).started, true);
  });
});

describe('a Go or Rust base that could not build, for want of a module or its dependencies', () => {
  // As `go test -v ./...` and `cargo test` print them in a sandbox without network (Go 1.19, cargo 1.9x).
  const noModule = 'pattern ./...: directory prefix . does not contain main module or its selected dependencies\n';
  const noSum =
    'a.go:3:8: missing go.sum entry for module providing package github.com/google/uuid (imported by example.com/godep); to add:\n\tgo get example.com/godep\n';
  const offline =
    'go: downloading github.com/google/uuid v1.3.0\na.go:3:8: github.com/google/uuid@v1.3.0: Get "https://proxy.golang.org/github.com/google/uuid/@v/v1.3.0.zip": dial tcp: lookup proxy.golang.org on 10.255.255.53:53: dial udp 10.255.255.53:53: connect: network is unreachable\n';
  const cargo = [
    '    Updating crates.io index',
    'warning: spurious network error (3 tries remaining): [6] Could not resolve hostname (Could not resolve host: index.crates.io)',
    'warning: spurious network error (2 tries remaining): [6] Could not resolve hostname (Could not resolve host: index.crates.io)',
    'error: failed to get `itoa` as a dependency of package `rdep v0.1.0 (/project)`',
    '',
    'Caused by:',
    '  download of config.json failed',
  ].join('\n');

  it('did not start, naming the line that says why (cargo: its error, not its warnings of retries)', () => {
    assert.deepEqual(start(noModule), { started: false, line: 'pattern ./...: directory prefix . does not contain main module or its selected dependencies' });
    assert.match(start(noSum).line ?? '', /^a\.go:3:8: missing go\.sum entry for module providing package github\.com\/google\/uuid/);
    assert.match(start(offline).line ?? '', /^a\.go:3:8: github\.com\/google\/uuid@v1\.3\.0: Get .*dial tcp: lookup proxy\.golang\.org/);
    assert.deepEqual(start(cargo, 101), { started: false, line: 'error: failed to get `itoa` as a dependency of package `rdep v0.1.0 (/project)`' });
  });

  it('started when one package ran its tests, though another could not build', () => {
    const mixed = `=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok  \texample.com/m/a\t0.002s\n${noSum}FAIL\texample.com/m/b [setup failed]\n`;
    assert.equal(start(mixed).started, true);
  });
});
