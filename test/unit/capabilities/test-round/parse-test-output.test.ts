import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { failureSignature, parseTestOutput } from '../../../../src/capabilities/test-round/parse-test-output.ts';
import { ROOT } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const NODE_TESTS = `import { test } from 'node:test';
import assert from 'node:assert/strict';

test('adds numbers', () => {
  assert.equal(1 + 1, 2);
});

test('counts words', () => {
  assert.equal(2, 3, 'word count is wrong');
});
`;

/** Runs node --test for real on a tiny file and returns its TAP output. */
async function nodeTapOutput(source: string): Promise<string> {
  const dir = await tempDir('sopworks-tap-');
  await fs.writeFile(path.join(dir, 'words.test.mjs'), source);
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'words.test.mjs'], { cwd: dir, env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.error, undefined);
  assert.match(run.stdout, /not ok \d+ - counts words/, `unexpected runner output:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

const PYTEST = `============================= test session starts ==============================
platform linux -- Python 3.12.1, pytest-8.0.0, pluggy-1.4.0
collected 5 items

test_x.py ..F..                                                          [100%]

=================================== FAILURES ===================================
___________________________________ test_y ____________________________________

    def test_y():
>       assert count("a a") == 1
E       AssertionError: assert 2 == 1

test_x.py:9: AssertionError
=========================== short test summary info ============================
FAILED test_x.py::test_y - AssertionError: assert 2 == 1
========================= 1 failed, 4 passed in 0.12s ==========================
`;

const UNITTEST = `..F
======================================================================
FAIL: test_counts (test_words.TestWords.test_counts)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/p/test_words.py", line 9, in test_counts
    self.assertEqual(count("a a"), 1)
AssertionError: 2 != 1

----------------------------------------------------------------------
Ran 3 tests in 0.001s

FAILED (failures=1)
`;

describe('parseTestOutput', () => {
  after(removeTempDirs);

  it('reads counts and the failing test from real node:test TAP output', async function () {
    this.timeout(30_000);
    const parsed = parseTestOutput(await nodeTapOutput(NODE_TESTS));
    assert.deepEqual(parsed.counts, { passed: 1, failed: 1 });
    assert.equal(parsed.failures.length, 1);
    assert.equal(parsed.failures[0]!.name, 'counts words');
    assert.match(parsed.failures[0]!.message, /word count is wrong/);
  });

  it('reads node:test spec-reporter totals', () => {
    const spec = '✔ adds numbers (0.5ms)\n✖ counts words (1.2ms)\nℹ tests 2\nℹ pass 1\nℹ fail 1\nℹ duration_ms 40.1\n';
    assert.deepEqual(parseTestOutput(spec).counts, { passed: 1, failed: 1 });
  });

  it('reads the pytest summary line and FAILED lines', () => {
    const parsed = parseTestOutput(PYTEST);
    assert.deepEqual(parsed.counts, { passed: 4, failed: 1 });
    assert.deepEqual(parsed.failures, [{ name: 'test_x.py::test_y', message: 'AssertionError: assert 2 == 1' }]);
  });

  it('counts pytest errors as failures', () => {
    const parsed = parseTestOutput('ERROR test_z.py - ImportError: no module\n===== 2 passed, 1 error in 0.30s =====\n');
    assert.deepEqual(parsed.counts, { passed: 2, failed: 1 });
    assert.deepEqual(parsed.failures, [{ name: 'test_z.py', message: 'ImportError: no module' }]);
  });

  it('reads a pytest run that stopped on collection errors ("2 errors in …")', () => {
    // the tail of real pytest 9 output when two test modules fail to import
    const output = [
      '=========================== short test summary info ============================',
      'ERROR test_a.py',
      'ERROR test_b.py',
      '!!!!!!!!!!!!!!!!!!! Interrupted: 2 errors during collection !!!!!!!!!!!!!!!!!!!!',
      '============================== 2 errors in 1.94s ===============================',
      '',
    ].join('\n');
    const parsed = parseTestOutput(output);
    assert.deepEqual(parsed.counts, { passed: 0, failed: 2 });
    assert.deepEqual(
      parsed.failures.map((f) => f.name),
      ['test_a.py', 'test_b.py'],
    );
  });

  it('reads pytest 9 with unittest subtests: the subtests counted apart, a failed one named by its test (trial cachetools50)', async () => {
    // pytest 9 counts subtests in the summary line; its -v line said PASSED for the test whose subtest failed
    const output = await fs.readFile(path.join(ROOT, 'test/fixtures/test-output/pytest-v-subtests.txt'), 'utf8');
    assert.deepEqual(parseTestOutput(output), {
      counts: { passed: 3, failed: 1 },
      failures: [{ name: 'tests/test_sub.py::TestResize::test_ac2_evicts', message: '(size=1) AssertionE...' }],
    });
    const passing = '=========== 301 passed, 2 skipped, 120 subtests passed in 1.60s ===========\n';
    assert.deepEqual(parseTestOutput(passing), { counts: { passed: 301, failed: 0 }, failures: [], skipped: 2 });
    assert.deepEqual(
      parseTestOutput('== 1 passed, 2 subtests failed, 3 subtests passed in 0.1s ==\n').counts,
      { passed: 1, failed: 0 },
      'the exit code says it failed',
    );
  });

  it('reads a clean pytest run', () => {
    assert.deepEqual(parseTestOutput('============ 6 passed in 0.05s ============\n'), { counts: { passed: 6, failed: 0 }, failures: [] });
  });

  it('reads unittest counts and the failing test', () => {
    const parsed = parseTestOutput(UNITTEST);
    assert.deepEqual(parsed.counts, { passed: 2, failed: 1 });
    assert.equal(parsed.failures.length, 1);
    assert.match(parsed.failures[0]!.message, /AssertionError: 2 != 1/);
  });

  it('names a unittest failure module.Class.method (Python < 3.11 header)', () => {
    const old = UNITTEST.replace('(test_words.TestWords.test_counts)', '(test_words.TestWords)');
    assert.equal(parseTestOutput(old).failures[0]?.name, 'test_words.TestWords.test_counts');
  });

  it('names a unittest failure module.Class.method, not repeating the method (Python >= 3.11 header)', () => {
    // Python 3.11+ prints "FAIL: test_counts (test_words.TestWords.test_counts)"
    assert.equal(parseTestOutput(UNITTEST).failures[0]?.name, 'test_words.TestWords.test_counts');
  });

  it('reads a clean unittest run', () => {
    assert.deepEqual(parseTestOutput('...\n----------------------------------------------------------------------\nRan 3 tests in 0.000s\n\nOK\n').counts, {
      passed: 3,
      failed: 0,
    });
  });

  it('handles Windows line endings', () => {
    assert.deepEqual(parseTestOutput(PYTEST.replace(/\n/g, '\r\n')).counts, { passed: 4, failed: 1 });
  });

  it('leaves counts null for output it does not recognise', () => {
    assert.deepEqual(parseTestOutput('Segmentation fault (core dumped)\n'), { counts: null, failures: [] });
    assert.deepEqual(parseTestOutput(''), { counts: null, failures: [] });
  });
});

describe('failureSignature', () => {
  const parsedWith = (names: string[]) => ({
    counts: { passed: 0, failed: names.length },
    failures: names.map((name) => ({ name, message: `${name} broke` })),
  });

  it('is the same for the same failures with different timings', () => {
    const slow = PYTEST.replace('0.12s', '3.40s');
    const a = failureSignature(parseTestOutput(PYTEST), 1, false, PYTEST);
    const b = failureSignature(parseTestOutput(slow), 1, false, slow);
    assert.equal(a, b);
    assert.match(a, /^[0-9a-f]{16}$/);
  });

  it('is the same whatever order the failures were reported in', () => {
    assert.equal(failureSignature(parsedWith(['a', 'b']), 1, false, 'x'), failureSignature(parsedWith(['b', 'a']), 1, false, 'y'));
  });

  it('differs for different failures', () => {
    const other = PYTEST.replace(/test_y/g, 'test_z');
    assert.notEqual(failureSignature(parseTestOutput(PYTEST), 1, false, PYTEST), failureSignature(parseTestOutput(other), 1, false, other));
    assert.notEqual(failureSignature(parsedWith(['a']), 1, false, ''), failureSignature(parsedWith(['a', 'b']), 1, false, ''));
  });

  it('falls back to the output without timings when no failure was parsed', () => {
    const none = { counts: null, failures: [] };
    assert.equal(failureSignature(none, 1, false, 'crashed after 120ms'), failureSignature(none, 1, false, 'crashed after 95 ms'));
    assert.notEqual(failureSignature(none, 1, false, 'crashed'), failureSignature(none, 2, false, 'crashed'));
    assert.notEqual(failureSignature(none, null, true, 'crashed'), failureSignature(none, null, false, 'crashed'));
  });
});
