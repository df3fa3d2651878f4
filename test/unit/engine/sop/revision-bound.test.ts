/**
 * Every review loop of the shipped SOPs is bounded by a `below` guard after the review, and that bound is
 * what a review's prompt is told (revision-bound.ts) — so a new review loop states its bound too. When the
 * bound is reached, what the review left open goes on with the artifact and into the run's figures.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describeFigures, runFigures } from '../../../../src/capabilities/project/index.ts';
import type { Message } from '../../../../src/engine/board/index.ts';
import { revisionBoundOf, revisionsLeft } from '../../../../src/engine/sop/revision-bound.ts';
import type { StateNodeConfig } from '../../../../src/engine/steps/index.ts';
import { SOPS } from '../../../helpers/paths.ts';

type States = Record<string, StateNodeConfig & { invoke?: { src?: string; input?: { action?: string; output?: string }; onDone?: unknown } }>;

async function shippedSops(): Promise<{ file: string; states: States }[]> {
  const files = [
    ...(await fs.readdir(SOPS)).map((f) => path.join(SOPS, f)),
    ...(await fs.readdir(path.join(SOPS, 'change'))).map((f) => path.join(SOPS, 'change', f)),
  ];
  const sops = await Promise.all(
    files.filter((f) => f.endsWith('.yaml')).map(async (file) => ({ file, doc: parseYaml(await fs.readFile(file, 'utf8')) as { states?: States } })),
  );
  return sops.filter((s) => s.doc?.states).map((s) => ({ file: path.relative(SOPS, s.file), states: s.doc.states! }));
}

describe('the bound after a review', () => {
  it('is found for every model review of the shipped SOPs: its prompt can say whether a revision may follow', async () => {
    const reviews: string[] = [];
    for (const { file, states } of await shippedSops()) {
      for (const [name, state] of Object.entries(states)) {
        if (state.invoke?.src !== 'ask' || state.invoke.input?.output !== 'Review') continue;
        reviews.push(`${file}:${state.invoke.input.action}`);
        const bound = revisionBoundOf(state.invoke.onDone, states);
        assert.ok(bound, `${file}: the review in state ${name} has no bound after it`);
        assert.ok(bound.max >= 1, `${file}: ${name}`);
      }
    }
    // The PRD's, each new file's, each fix's, each change's and each change's fix.
    for (const expected of [
      'product-manager.yaml:review_prd',
      'engineer-file.yaml:review_file',
      'engineer-fix.yaml:review_fix',
      'change/change-file.yaml:review_edit',
      'change/change-fix.yaml:review_fix_edit',
    ]) {
      assert.ok(reviews.includes(expected), `${expected} among ${reviews.join(', ')}`);
    }
  });

  it("counts the revisions left from the role's counter: none on the last review", () => {
    const states = {
      reviewing: { invoke: { src: 'ask', onDone: { target: 'deciding' } } },
      deciding: {
        always: [
          { guard: 'approved', target: 'publishing' },
          { guard: { type: 'below', params: { counter: 'revisions', max: 2 } }, target: 'revising' },
          { target: 'publishing' },
        ],
      },
    } as unknown as Record<string, StateNodeConfig>;
    const bound = revisionBoundOf({ target: 'deciding' }, states);
    assert.deepEqual(bound, { counter: 'revisions', max: 2 });
    assert.deepEqual(
      [0, 1, 2].map((n) => revisionsLeft(bound, { revisions: n })),
      [2, 1, 0],
    );
    assert.equal(revisionBoundOf({ target: 'reviewing' }, states), null, 'a state with no bound after it');
    assert.equal(revisionsLeft(null, {}), null);
  });

  it("lists a file's and the PRD's open issues in the run's figures, and nothing for an approved review", () => {
    const message = (type: string, payload: unknown, n: number) =>
      ({ id: `msg-${n}`, type, from: 'x', to: 'all', causedBy: [], payload }) as unknown as Message;
    const prd = {
      projectName: 'p',
      summary: 's',
      goals: ['g'],
      userStories: [{ asA: 'a', iWant: 'b', soThat: 'c' }],
      requirementPool: [{ id: 'R1', description: 'd', priority: 'P0' }],
      acceptanceCriteria: ['x'],
      openQuestions: [],
    };
    const code = (p: string, review: unknown) => ({ path: p, content: 'x = 1\n', review });
    const figures = runFigures([
      message('PRD', { ...prd, review: { approved: false, issues: ['R4 is ambiguous'] } }, 1),
      message('Code', code('src/a.py', { approved: false, issues: ['off by one', 'no error message'] }), 2),
      message('Code', code('src/b.py', { approved: true, issues: [] }), 3),
    ]);
    assert.deepEqual(figures.openIssues, [
      { artifact: 'PRD', issues: ['R4 is ambiguous'] },
      { artifact: 'src/a.py', issues: ['off by one', 'no error message'] },
    ]);
    const line = describeFigures(figures).find((f) => f.name === 'Open issues');
    assert.equal(
      line?.value,
      '3 left by a last review, its revisions spent (PRD 1, src/a.py 2): PRD: "R4 is ambiguous"; src/a.py: "off by one", "no error message"',
    );
    const clean = runFigures([message('PRD', { ...prd, review: { approved: true, issues: [] } }, 1)]);
    assert.deepEqual(clean.openIssues, []);
    assert.equal(
      describeFigures(clean).find((f) => f.name === 'Open issues'),
      undefined,
      'no line when nothing is open',
    );
  });
});
