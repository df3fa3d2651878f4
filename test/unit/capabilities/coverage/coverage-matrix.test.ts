/**
 * The coverage matrix: each criterion and the tests that cite its id, read from a test round's real
 * output, and whether that proves it — built by sopworks, the same every time for the same round.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildCoverage, renderCoverage } from '../../../../src/capabilities/coverage/index.ts';
import { readTestCases } from '../../../../src/capabilities/test-round/index.ts';
import { changeCriteria, citedCriteria, coverageSummary, describeCoverage, prdCriteria } from '../../../../src/documents/index.ts';
import { ROOT } from '../../../helpers/paths.ts';

const criteria = prdCriteria({
  acceptanceCriteria: [
    'counts words',
    'prints the top ten',
    'malformed input exits 1',
    'nested suites count',
    'a second file counts',
    'a README explains usage',
  ],
});

/** A round as the test round reports it: the tests the output named, and those citing a criterion. */
function roundOf(fixture: string, round = 1) {
  const cases = readTestCases(fs.readFileSync(path.join(ROOT, 'test/fixtures/test-output', fixture), 'utf8'));
  return { round, cases: { named: cases.length, citing: cases.filter((c) => citedCriteria(c.name).length > 0) } };
}

describe('the coverage matrix', () => {
  it('reads proven, failing and untested from the tests that cite each id (node --test, the real output)', () => {
    const coverage = buildCoverage(criteria, roundOf('node-tap-criteria.txt'));
    const status = Object.fromEntries(coverage.criteria.map((c) => [c.id, c.status]));
    assert.deepEqual(status, {
      'AC-1': 'failing', // one of its two tests failed
      'AC-2': 'proven',
      'AC-3': 'untested', // its only test was skipped
      'AC-4': 'failing', // cited by the suite its tests lie in
      'AC-5': 'proven',
      'AC-6': 'untested', // no test names it
    });
    assert.deepEqual(coverage.criteria.find((c) => c.id === 'AC-4')!.tests, [
      { name: 'outer > AC-4 inner > inner ok', outcome: 'passed' },
      { name: 'outer > AC-4 inner > inner bad', outcome: 'failed' },
    ]);
    assert.equal(coverage.testsNamed, 8);
    assert.deepEqual(coverageSummary(coverage), {
      proven: 2,
      total: 6,
      p0Proven: 2,
      p0Total: 6,
      unmet: [
        { id: 'AC-1', status: 'failing' },
        { id: 'AC-3', status: 'untested' },
        { id: 'AC-4', status: 'failing' },
        { id: 'AC-6', status: 'untested' },
      ],
      manual: [],
    });
  });

  it('gives the same statuses whatever the runner (pytest, go test, jest, unittest)', () => {
    for (const fixture of ['pytest-v-criteria.txt', 'go-v-criteria.txt', 'jest-verbose-criteria.txt']) {
      const status = buildCoverage(criteria, roundOf(fixture)).criteria.map((c) => c.status);
      assert.deepEqual(status.slice(0, 4), ['failing', fixture === 'pytest-v-criteria.txt' ? 'untested' : 'proven', 'untested', 'failing'], fixture);
    }
  });

  it('names the tests that cite an id the run has no criterion for', () => {
    const coverage = buildCoverage(prdCriteria({ acceptanceCriteria: ['only one'] }), roundOf('node-tap-criteria.txt'));
    assert.deepEqual(
      coverage.strayCitations.map((s) => `${s.test}: ${s.ids.join(',')}`),
      [
        'AC-5 second file: AC-5',
        'AC-2 prints the top ten: AC-2',
        'AC-3: malformed input exits 1: AC-3',
        'outer > AC-4 inner > inner ok: AC-4',
        'outer > AC-4 inner > inner bad: AC-4',
      ],
    );
  });

  it('is the same matrix for the same round, built twice (resume, replay)', () => {
    assert.deepEqual(buildCoverage(criteria, roundOf('mocha-spec-criteria.txt', 2)), buildCoverage(criteria, roundOf('mocha-spec-criteria.txt', 2)));
  });

  it("a change request's criteria are required, what it must keep working too (P0: the repository's tests name no KW id)", () => {
    const change = changeCriteria({ acceptanceCriteria: ['--json prints JSON'], mustKeepWorking: ['the table output', 'exit codes'] });
    assert.deepEqual(
      change.map((c) => `${c.id} ${c.priority}`),
      ['AC-1 P0', 'KW-1 P0', 'KW-2 P0'],
    );
    const coverage = buildCoverage(change, { round: 1, cases: { named: 1, citing: [{ name: 'KW-1 the table output', outcome: 'passed' }] } });
    assert.equal(describeCoverage(coverage), '1 of 3 criteria proven (P0: 1 of 3; unmet: AC-1 untested, KW-2 untested)');
  });

  it('a round whose output names no test says how to make it list them', () => {
    const page = renderCoverage(buildCoverage(criteria, { round: 3, cases: { named: 0, citing: [] } }));
    assert.match(page, /^# Coverage — test round 3\n\n0 of 6 criteria proven \(P0: 0 of 6; unmet: AC-1 untested/);
    assert.match(page, /The test output names no test: the test command must name each test in its output, .*`go test -v \.\/\.\.\.`, `pytest -v`/);
    // A report from before the test round read cases: nothing proven, and the same advice.
    assert.equal(buildCoverage(criteria, { round: 1 }).testsNamed, 0);
  });

  it('commits each criterion as written, with its tests in code spans', () => {
    const page = renderCoverage(buildCoverage(prdCriteria({ acceptanceCriteria: ['a | pipe\nand a line'] }), roundOf('node-spec-criteria.txt')));
    assert.match(
      page,
      /- \*\*AC-1\*\* \(P0, FAILING\): a \| pipe\n {2}and a line\n {2}- passed: `AC-1: counts words > counts a single word`\n {2}- failed: `AC-1: counts words > lowercases words`/,
    );
  });
});
