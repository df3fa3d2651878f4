/**
 * Manual checks (issue 40, Must 3): a criterion no automated test can prove is declared manual by QA and
 * judged by a review that reads the files. What QA may declare (the bound that keeps it from dodging a
 * testable criterion), how the board's declarations and verdicts become the matrix's statuses (a verdict
 * counts for the files as they were), the guards of the gate, and the bug report a rejection sends.
 */
import assert from 'node:assert/strict';
import {
  allowedClaims,
  buildCoverage,
  criteriaProven,
  criteriaRejected,
  criteriaUntested,
  manualBugReport,
  manualReview,
  manualReviewDue,
  renderCoverage,
} from '../../../../src/capabilities/coverage/index.ts';
import { manualStates } from '../../../../src/capabilities/coverage/manual-state.ts';
import { strictJsonSchema } from '../../../../src/capabilities/model/index.ts';
import {
  type Coverage,
  coverageSummary,
  describeCoverage,
  MANUAL_VERDICT_RULE,
  type ManualCheckState,
  ManualChecks,
  ManualVerdicts,
  prdCriteria,
} from '../../../../src/documents/index.ts';
import type { BoardReader, Message } from '../../../../src/engine/board/index.ts';

const criteria = prdCriteria({ acceptanceCriteria: ['the CLI prints the verdicts', 'README.md says how to install, use and test it'] });
const AC1_PASSES = { round: 1, cases: { named: 1, citing: [{ name: 'AC-1: the CLI prints', outcome: 'passed' as const }] } };
const check = { id: 'AC-2', reason: 'prose', artifacts: ['README.md'], lookFor: 'install, usage, tests' };
const state = (verdict: ManualCheckState['verdict'], verdictReason: string | null = verdict ? 'because' : null): ManualCheckState => ({
  reason: 'prose',
  artifacts: ['README.md'],
  lookFor: 'install, usage, tests',
  verdict,
  verdictReason,
});

/** A board of the given messages, in order (seq from 1). */
function boardOf(messages: { type: string; payload: unknown }[]): BoardReader {
  const all = messages.map((m, i) => ({ ...m, seq: i + 1, id: `msg-${String(i + 1).padStart(6, '0')}`, from: 'x', to: 'all', causedBy: [], createdAt: '' }));
  return {
    all: <T>(type: string) => all.filter((m) => m.type === type) as Message<T>[],
    latest: <T>(type: string) => all.findLast((m) => m.type === type) as Message<T> | undefined,
  };
}
const guard = (g: typeof criteriaProven, coverage: Coverage) =>
  g.test({ context: { slots: { coverage } } } as never, { slot: 'coverage' } as never, boardOf([]));

describe('manual checks', () => {
  it('are asked for with schemas strict structured output takes: every property required, no optional field', () => {
    /** Every object of a JSON Schema, with its properties and what it requires. */
    const objects = (node: unknown): { properties: string[]; required: string[] }[] => {
      if (node === null || typeof node !== 'object') return [];
      const n = node as { type?: string; properties?: object; required?: string[] };
      const own = n.type === 'object' ? [{ properties: Object.keys(n.properties ?? {}).sort(), required: [...(n.required ?? [])].sort() }] : [];
      return [...own, ...Object.values(node).flatMap(objects)];
    };
    for (const schema of [ManualChecks, ManualVerdicts]) {
      const found = objects(strictJsonSchema(schema));
      assert.equal(found.length, 2, 'the reply and each of its items');
      for (const o of found) assert.deepEqual(o.required, o.properties);
    }
    assert.ok(ManualChecks.safeParse({ checks: [] }).success, 'none manual is a reply');
    assert.ok(!ManualChecks.safeParse({ checks: [{ ...check, artifacts: [] }] }).success, 'a check names the files to read');
    assert.ok(!ManualChecks.safeParse({ checks: [{ ...check, id: 'R3' }] }).success, 'a check names a criterion id');
    const twice = ManualVerdicts.safeParse({ verdicts: [1, 2].map(() => ({ id: 'AC-2', verdict: 'accepted', reason: 'ok' })) });
    assert.ok(!twice.success && twice.error.issues[0]!.message.startsWith(MANUAL_VERDICT_RULE), 'a criterion is answered once, the rule said');
  });

  it('a criterion no test names is proven by an accepted check, rejected by a rejected one, and untested while awaiting or found testable', () => {
    const statusWith = (verdict: ManualCheckState['verdict']) =>
      buildCoverage(criteria, AC1_PASSES, new Map([['AC-2', state(verdict)]])).criteria.map((c) => c.status);
    assert.deepEqual(statusWith('accepted'), ['proven', 'proven']);
    assert.deepEqual(statusWith('rejected'), ['proven', 'rejected']);
    assert.deepEqual(statusWith('testable'), ['proven', 'untested']);
    assert.deepEqual(statusWith(null), ['proven', 'untested']);
    // A test that names it decides it, whatever the check said.
    const tested = { round: 2, cases: { named: 2, citing: [...AC1_PASSES.cases.citing, { name: 'AC-2: the README', outcome: 'failed' as const }] } };
    assert.equal(buildCoverage(criteria, tested, new Map([['AC-2', state('accepted')]])).criteria[1]!.status, 'failing');
  });

  it('says the verdicts in the summary, the matrix and the one-line description', () => {
    const accepted = buildCoverage(criteria, AC1_PASSES, new Map([['AC-2', state('accepted', 'all three sections')]]));
    assert.deepEqual(coverageSummary(accepted).manual, [{ id: 'AC-2', verdict: 'accepted', reason: 'all three sections' }]);
    assert.equal(describeCoverage(accepted), '2 of 2 criteria proven (P0: 2 of 2; manual: AC-2 accepted)');
    const rejected = buildCoverage(criteria, AC1_PASSES, new Map([['AC-2', state('rejected', 'no Tests section')]]));
    assert.equal(describeCoverage(rejected), '1 of 2 criteria proven (P0: 1 of 2; unmet: AC-2 rejected; manual: AC-2 rejected)');
    const page = renderCoverage(rejected);
    assert.match(
      page,
      /- \*\*AC-2\*\* \(P0, REJECTED by its manual check\): README\.md says how to install, use and test it\n {2}- manual: rejected \(no Tests section\)\n {2}- no automated test: prose; read `README\.md` for: install, usage, tests/,
    );
    assert.match(renderCoverage(buildCoverage(criteria, AC1_PASSES, new Map([['AC-2', state(null)]]))), /- manual: awaiting review/);
  });

  it('reads declarations and verdicts from the board: a verdict counts for the files as they were when it was given', () => {
    const readme = (content: string) => ({ type: 'Code', payload: { path: 'README.md', content } });
    const declared = { type: 'ManualChecks', payload: { checks: [check] } };
    const verdict = (v: string) => ({ type: 'ManualVerdicts', payload: { verdicts: [{ id: 'AC-2', verdict: v, reason: `said ${v}` }] } });
    assert.equal(manualStates(boardOf([readme('v1'), declared])).get('AC-2')!.verdict, null, 'awaiting its review');
    assert.deepEqual(manualStates(boardOf([readme('v1'), declared, verdict('rejected')])).get('AC-2'), { ...state('rejected', 'said rejected') });
    // The Engineer fixed the README: the rejection no longer counts, and the check awaits another look …
    assert.equal(manualStates(boardOf([readme('v1'), declared, verdict('rejected'), readme('v2')])).get('AC-2')!.verdict, null);
    // … asked again, and answered.
    const again = boardOf([readme('v1'), declared, verdict('rejected'), readme('v2'), declared, verdict('accepted')]);
    assert.equal(manualStates(again).get('AC-2')!.verdict, 'accepted');
    // A verdict given before the declaration it would answer is not its answer.
    assert.equal(manualStates(boardOf([readme('v1'), verdict('accepted'), declared])).get('AC-2')!.verdict, null);
  });

  it('keeps QA from dodging a testable criterion: only untested criteria, never one found testable, reading files the run wrote', () => {
    const coverage = buildCoverage(criteria, AC1_PASSES);
    const reply = {
      checks: [
        { ...check, id: 'AC-1' }, // proven by a test: not QA's to declare
        { ...check, artifacts: ['README.md', 'docs/none.md'] }, // a file the run did not write is dropped
        { ...check, lookFor: 'again' }, // declared twice: the first stands
        { ...check, id: 'AC-9' }, // no criterion of the run
      ],
    };
    assert.deepEqual(allowedClaims(reply, coverage, new Set(), new Set(['README.md', 'src/cli.js'])), { checks: [check] });
    assert.deepEqual(allowedClaims(reply, coverage, new Set(['AC-2']), new Set(['README.md'])), { checks: [] }, 'found testable: no more manual');
    assert.deepEqual(allowedClaims({ checks: [{ ...check, artifacts: ['docs/none.md'] }] }, coverage, new Set(), new Set(['README.md'])), { checks: [] });
  });

  it('the gate: a check awaiting review goes to the review, a rejected one to the Engineer, an accepted one is done', () => {
    const withCheck = (s: ManualCheckState) => buildCoverage(criteria, AC1_PASSES, new Map([['AC-2', s]]));
    const verdicts = (c: Coverage) => [criteriaProven, manualReviewDue, criteriaRejected, criteriaUntested].map((g) => guard(g, c));
    assert.deepEqual(verdicts(withCheck(state(null))), [false, true, false, true]);
    assert.deepEqual(verdicts(withCheck(state('rejected'))), [false, false, true, false]);
    assert.deepEqual(verdicts(withCheck(state('testable'))), [false, false, false, true]);
    assert.deepEqual(verdicts(withCheck(state('accepted'))), [true, false, false, false]);
  });

  it("sends a rejection to the Engineer as a bug report on the files read, with the review's reason", () => {
    const bug = manualBugReport(buildCoverage(criteria, AC1_PASSES, new Map([['AC-2', state('rejected', 'no Tests section')]])));
    assert.deepEqual(bug.failingTests, []);
    assert.deepEqual(bug.files, [
      { path: 'README.md', problem: 'AC-2 ("README.md says how to install, use and test it"): no Tests section (the review looks for: install, usage, tests)' },
    ]);
    assert.match(bug.summary, /^No automated test can prove AC-2, so a review read the files instead, and rejected them/);
  });

  it('reads a long changelog a change edited around its edit, a short file whole (trial express48b: 127 KB of History.md for one entry)', async () => {
    const history = ['# History', '', '## Unreleased', '', ...Array.from({ length: 3000 }, (_, i) => `* an old entry, number ${i + 1}, kept for the record`)];
    const edited = [...history.slice(0, 4), '* res.redirect() refuses a status that is not a redirect', ...history.slice(4)].join('\n');
    const board = boardOf([
      { type: 'ChangeRequest', payload: { acceptanceCriteria: ['a', 'History.md notes the change'], keepWorking: [] } },
      { type: 'Code', payload: { path: 'History.md', content: edited, changed: [4] } },
      { type: 'Code', payload: { path: 'README.md', content: '# Tool\n', changed: null } },
      { type: 'ManualChecks', payload: { checks: [{ id: 'AC-2', reason: 'prose', artifacts: ['History.md', 'README.md'], lookFor: 'the entry' }] } },
    ]);
    const view = (await manualReview.read({ board, context: { slots: {} } } as never, 'manualReview')) as {
      files: { path: string; content: string; inPart: { lines: number } | null }[];
    };
    const [changelog, readme] = view.files;
    assert.deepEqual(changelog!.inPart, { lines: 3005 });
    assert.match(changelog!.content, /^# History\n\n## Unreleased\n\n\* res\.redirect\(\) refuses a status that is not a redirect\n/);
    assert.ok(changelog!.content.length < 30_000, `in part: ${changelog!.content.length} characters`);
    assert.deepEqual(readme, { path: 'README.md', content: '# Tool\n', inPart: null });
  });
});
