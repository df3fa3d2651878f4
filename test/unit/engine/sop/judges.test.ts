/**
 * Which steps judge a step's reply (src/engine/sop/judges.ts): the checks the SOP runs right after it,
 * whose rules its prompt must state. Read from the shipped SOPs themselves.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadCompany, vocabulary } from '../../../../src/company/index.ts';
import { judgesOf } from '../../../../src/engine/sop/judges.ts';
import type { SopFile } from '../../../../src/engine/steps/index.ts';
import { ROLES, SOPS } from '../../../helpers/paths.ts';

const CHANGE_SOPS = path.join(SOPS, 'change');

const judgesIn = (sop: SopFile, state: string) =>
  judgesOf(sop.states[state]!.invoke && (sop.states[state]!.invoke as { onDone?: unknown }).onDone, sop.states, vocabulary);

describe('the judges of a step', () => {
  it("are the checks its onDone leads to: the design's, the task graph's, a draft's fast checks", async () => {
    const company = await loadCompany(SOPS, ROLES);
    const architect = company.roles.find((r) => r.id === 'architect')!.sop;
    for (const state of ['designing', 'fixingDesign', 'redesigning']) {
      assert.deepEqual(
        judgesIn(architect, state).map((j) => [j.src, (j.params as { check: string }).check]),
        [['check', 'design']],
        state,
      );
    }
    for (const state of ['planning', 'replanning'])
      assert.deepEqual(
        judgesIn(architect, state).map((j) => (j.params as { check: string }).check),
        ['taskGraph'],
        state,
      );
    const file = company.roles.find((r) => r.id === 'engineer')!.subSops['engineer-file.yaml']!;
    assert.deepEqual(
      judgesIn(file, 'writing').map((j) => j.src),
      ['fastCheck'],
    );
    assert.deepEqual(
      judgesIn(file, 'revising').map((j) => j.src),
      ['fastCheck'],
    );
    assert.deepEqual(judgesIn(file, 'reviewing'), [], 'a review is judged by a guard, not a check');
    const pm = company.roles.find((r) => r.id === 'product-manager')!.sop;
    assert.deepEqual(judgesIn(pm, 'writing'), []);
  });

  it("of a change's design delta and tasks are the test command's check and the change tasks' check", async () => {
    const company = await loadCompany(CHANGE_SOPS, ROLES);
    const architect = company.roles.find((r) => r.id === 'architect')!.sop;
    assert.deepEqual(
      judgesIn(architect, 'designing').map((j) => [j.src, j.params]),
      [['checkTestCommand', { design: 'designDelta', tester: 'qa' }]],
    );
    assert.deepEqual(
      judgesIn(architect, 'replanning').map((j) => j.src),
      ['checkChangeTasks'],
    );
  });
});
