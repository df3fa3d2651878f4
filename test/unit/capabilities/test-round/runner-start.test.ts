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
