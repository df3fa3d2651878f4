/**
 * Test output in every common form, from real runs kept in test/fixtures/test-output/ (node 20's tap,
 * spec and dot reporters; pytest -q with and without its short summary, -v; unittest verbose and not;
 * runs killed mid-test): counts, failing tests, and the test that was running when a run was stopped —
 * said, with the limit that stopped it, as a failure the Engineer can act on.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseTestOutput } from '../../../../src/capabilities/test-round/parse-test-output.ts';
import { stoppedByLimit } from '../../../../src/capabilities/test-round/stopped-by-limit.ts';
import { DEFAULT_LIMITS } from '../../../../src/host/sandbox/index.ts';
import { ROOT } from '../../../helpers/paths.ts';

const output = (name: string) => parseTestOutput(fs.readFileSync(path.join(ROOT, 'test/fixtures/test-output', name), 'utf8'));
const names = (parsed: ReturnType<typeof parseTestOutput>) => parsed.failures.map((f) => f.name);

describe('test output in every common form', () => {
  for (const reporter of ['tap', 'spec', 'dot']) {
    it(`node --test --test-reporter=${reporter}: counts and failing tests (not the suite that only holds one)`, () => {
      const parsed = output(`node-${reporter}-failing.txt`);
      assert.deepEqual(parsed.counts, { passed: 2, failed: 2 });
      assert.deepEqual(names(parsed), ['lowercases words', 'inner bad']);
      assert.match(parsed.failures[0]!.message, /'a' !== 'b'/);
      assert.doesNotMatch(parsed.failures[0]!.message, /^\s*at |ERR_ASSERTION',$/m);
      assert.match(parsed.failures[1]!.message, /boom/);
    });
  }

  it('pytest -q: the bare summary line and the FAILED lines', () => {
    const parsed = output('pytest-q-failing.txt');
    assert.deepEqual(parsed.counts, { passed: 1, failed: 2 });
    assert.deepEqual(names(parsed), ['tests/test_a.py::test_bad', 'tests/test_a.py::test_err']);
    assert.match(parsed.failures[0]!.message, /one is not two/);
  });

  it('pytest -v with test ids too long for a message on their summary line: each message from its FAILURES section', () => {
    const parsed = output('pytest-v-long-ids.txt');
    assert.deepEqual(parsed.counts, { passed: 2, failed: 2 });
    assert.deepEqual(names(parsed), [
      `tests/test_quote.py::test_quote_false_keeps_quotes_and_escapes_the_others[a&b<c>d'e"f plus a rather long parameter]`,
      'tests/test_quote.py::TestSignature::test_has_keyword_only_quote_argument_in_its_signature_as_documented',
    ]);
    assert.match(parsed.failures[0]!.message, /^assert "a&amp;b<c>d'\.\.\.ong parameter" == /);
    assert.equal(parsed.failures[1]!.message, "TypeError: escape() got an unexpected keyword argument 'quote'");
  });

  it("go test -v: each failure's logged lines, and a package that did not compile with the compiler's (and go's note of the Go it needs)", () => {
    const parsed = output('go-v-build-failed.txt');
    assert.deepEqual(parsed.counts, { passed: 2, failed: 3 });
    assert.deepEqual(parsed.failures, [
      { name: 'TestBad', message: 'a_test.go:8: got 1, want 2' },
      { name: 'TestTable/one', message: 'a_test.go:12: one is wrong' },
      {
        name: 'example.com/gofail/broken [build failed]',
        message: 'broken/b_test.go:5:43: time.Now().Compare undefined (type time.Time has no field or method Compare)\nnote: module requires Go 1.21',
      },
    ]);
  });

  it('pytest -q without its short summary (-rN): the FAILURES headers and E lines', () => {
    const parsed = output('pytest-q-no-summary.txt');
    assert.deepEqual(parsed.counts, { passed: 1, failed: 2 });
    assert.deepEqual(names(parsed), ['test_bad', 'test_err']);
    assert.match(parsed.failures[1]!.message, /ValueError: bad value/);
  });

  it('pytest -q, all passing', () => {
    assert.deepEqual(output('pytest-q-passing.txt'), { counts: { passed: 2, failed: 0 }, failures: [] });
  });

  for (const [file, form] of [
    ['unittest-verbose-failing.txt', 'verbose'],
    ['unittest-failing.txt', 'plain'],
  ] as const) {
    it(`unittest ${form}: counts and failing tests`, () => {
      const parsed = output(file);
      assert.deepEqual(parsed.counts, { passed: 1, failed: 2 });
      assert.deepEqual(names(parsed).sort(), ['tests.test_u.T.test_bad', 'tests.test_u.T.test_err']);
    });
  }

  it('pytest -v killed mid-test: names the test that was running', () => {
    const parsed = output('pytest-v-killed.txt');
    assert.equal(parsed.counts, null);
    assert.equal(parsed.running, 'tests/test_slow.py::test_hangs');
  });

  it('unittest -v killed mid-test: names the test that was running', () => {
    assert.equal(output('unittest-verbose-killed.txt').running, 'tests.test_slow.S.test_stuck');
  });

  it('a runner that prints a test only once it ends (node --test) names none, and says so', () => {
    const parsed = output('node-tap-killed.txt');
    assert.equal(parsed.running, undefined);
    const failure = stoppedByLimit({ limitsHit: ['time'], limits: { ...DEFAULT_LIMITS, wallSeconds: 30 } }, parsed);
    assert.deepEqual(failure?.name, 'the test run');
    assert.match(failure!.message, /stopped by the time limit \(30 s wall clock\); the output does not say which test was running/);
  });

  it('a run stopped by a limit says which limit and which test was running', () => {
    const failure = stoppedByLimit({ limitsHit: ['time'], limits: { ...DEFAULT_LIMITS, wallSeconds: 30 } }, output('pytest-v-killed.txt'));
    assert.deepEqual(failure, {
      name: 'tests/test_slow.py::test_hangs',
      message: 'stopped by the time limit (30 s wall clock) while this test was running — it hangs, loops, or needs more than the limit allows',
    });
    const memory = stoppedByLimit({ limitsHit: ['memory', 'output'], limits: DEFAULT_LIMITS }, output('unittest-verbose-killed.txt'));
    assert.match(memory!.message, /^stopped by the memory limit \(1024 MB per process\) while this test was running/);
  });

  it('output cut at its limit alone did not stop the run: no failure is made up', () => {
    assert.equal(stoppedByLimit({ limitsHit: ['output'], limits: DEFAULT_LIMITS }, output('pytest-q-failing.txt')), null);
    assert.equal(stoppedByLimit({ limitsHit: [], limits: DEFAULT_LIMITS }, output('pytest-v-killed.txt')), null);
  });
});

describe('test output that only looks like a form', () => {
  it('does not read a program\'s "..." as node:test dots', () => {
    assert.equal(parseTestOutput('Loading\n...\nError: cannot find module ./x\n').counts, null);
  });
});
