/** The flaky-test verdict: a test seen passing and failing on the same code is set aside, never one the change wrote. */
import assert from 'node:assert/strict';
import { judgeFlaky, rerunCandidates, withoutFlaky, writtenByChange } from '../../../../src/capabilities/test-round/flaky-tests.ts';

const ran = (failed: string[], passed = 10) => ({ timedOut: false, counts: { passed, failed: failed.length }, failures: failed.map((name) => ({ name })) });

const comparison = (failingNow: string[]) => ({
  newFailures: true,
  by: 'tests' as const,
  failingBefore: ['old bug'],
  failingNow,
  lines: [`New failures (not failing on the base): ${failingNow.join(', ')}`, 'Failing on the base already: old bug'],
});

describe('flaky tests', () => {
  it('a new failure that passes on its re-run is flaky, with what it was seen doing', () => {
    const verdict = judgeFlaky({ round: 2, fresh: ['ticks'], candidates: ['ticks'], roundTotal: 10, rerun: ran([]), baseRerun: ran([]) });
    assert.deepEqual(verdict, { flaky: [{ name: 'ticks', evidence: 'failed in round 2, passed on its re-run' }], blamed: [] });
  });

  it('a new failure that fails again but also fails on the base re-run is flaky on the base', () => {
    const verdict = judgeFlaky({ round: 1, fresh: ['ticks'], candidates: ['ticks'], roundTotal: 10, rerun: ran(['ticks']), baseRerun: ran(['ticks']) });
    assert.deepEqual(verdict.flaky, [{ name: 'ticks', evidence: "passed on the base, failed on the base's re-run (and failed again on round 1's re-run)" }]);
    assert.deepEqual(verdict.blamed, []);
  });

  it('a failure seen failing on every run of the change and passing on every run of the base is blamed', () => {
    const verdict = judgeFlaky({
      round: 1,
      fresh: ['broken', 'ticks'],
      candidates: ['broken', 'ticks'],
      roundTotal: 10,
      rerun: ran(['broken']),
      baseRerun: ran([]),
    });
    assert.deepEqual(verdict.blamed, ['broken']);
    assert.deepEqual(
      verdict.flaky.map((f) => f.name),
      ['ticks'],
    );
  });

  it('a test the change wrote is never excused, whatever the re-runs say', () => {
    const verdict = judgeFlaky({
      round: 1,
      fresh: ['AC-1: parses', 'ticks'],
      candidates: ['ticks'],
      roundTotal: 10,
      rerun: ran([]),
      baseRerun: ran(['AC-1: parses']),
    });
    assert.deepEqual(verdict.blamed, ['AC-1: parses']);
  });

  it('a re-run that did not run the whole suite proves no pass: stopped by its limit, no counts, fewer tests', () => {
    for (const rerun of [{ ...ran([]), timedOut: true }, { ...ran([]), counts: null }, ran([], 3)]) {
      const verdict = judgeFlaky({ round: 1, fresh: ['ticks'], candidates: ['ticks'], roundTotal: 10, rerun, baseRerun: ran([]) });
      assert.deepEqual(verdict.blamed, ['ticks'], JSON.stringify(rerun));
    }
    assert.deepEqual(judgeFlaky({ round: 1, fresh: ['ticks'], candidates: ['ticks'], roundTotal: 10, rerun: null, baseRerun: null }).blamed, ['ticks']);
  });

  it("knows the change's tests: by a criterion cited, or a test file of the change named (a path, a unittest module)", () => {
    const files = ['test/greet-lang.test.js', 'tests/test_lang.py'];
    assert.ok(writtenByChange('KW-2 keeps English', []));
    assert.ok(writtenByChange('test/greet-lang.test.js > greets', files));
    assert.ok(writtenByChange('tests/test_lang.py::test_fr', files));
    assert.ok(writtenByChange('tests.test_lang.LangTest.test_fr', files));
    assert.ok(!writtenByChange('tests.test_language.LangTest.test_fr', files));
    assert.ok(!writtenByChange('src/redos.spec.ts > redos > /x/*a@/*c/y', files));
  });

  it('runs again only new failures named test by test, and none of the change', () => {
    assert.deepEqual(rerunCandidates(comparison(['AC-1: parses', 'ticks']), [], true), ['ticks']);
    assert.deepEqual(rerunCandidates({ ...comparison(['ticks']), by: 'signature' }, [], true), []);
    assert.deepEqual(rerunCandidates({ ...comparison(['ticks']), by: 'no-base' }, [], true), ['ticks'], 'a base that passed: every failure is new');
    assert.deepEqual(rerunCandidates({ ...comparison(['ticks']), by: 'no-base' }, [], false), [], 'a base without tests: nothing existed');
    assert.deepEqual(rerunCandidates({ ...comparison([]), newFailures: false }, [], true), []);
  });

  it('the comparison after the re-runs blames only what remains, and says what was set aside and why', () => {
    const verdict = { flaky: [{ name: 'ticks', evidence: 'failed in round 1, passed on its re-run' }], blamed: [] };
    const after = withoutFlaky(comparison(['ticks']), verdict, [], 0);
    assert.equal(after.newFailures, false);
    assert.deepEqual(after.failingNow, []);
    assert.deepEqual(after.lines, [
      'Flaky, not blamed on the change (seen passing and failing on the same code): ticks (failed in round 1, passed on its re-run)',
      'Failing on the base already: old bug',
    ]);
    const mixed = withoutFlaky(comparison(['broken', 'AC-1: x', 'ticks']), { ...verdict, blamed: ['broken', 'AC-1: x'] }, ['AC-1: x'], 2);
    assert.equal(mixed.newFailures, true);
    assert.deepEqual(mixed.lines.slice(0, 2), [
      'New failures (not failing on the base, and failing again when run again): broken',
      "New failures of the change's own tests (never excused as flaky): AC-1: x",
    ]);
    const more = withoutFlaky(comparison(['ticks']), verdict, [], 1);
    assert.equal(more.newFailures, true, 'flaky ones aside, more tests still fail than on the base');
  });
});
