/** Each role's SOP as a state diagram, with the state its run recorded marked. */
import assert from 'node:assert/strict';
import { roleViewsOf, sopHasState } from '../../../../src/apps/review/role-diagrams.ts';
import { RunInfo } from '../../../../src/apps/review/run-files.ts';
import { SopFile } from '../../../../src/engine/steps/index.ts';
import { ROLES, SOPS } from '../../../helpers/paths.ts';

const info = (sops = SOPS) => RunInfo.parse({ spec: 's', project: 'p', model: 'm', sops, roles: ROLES, startedAt: '2024-05-01T12:00:00.000Z' });
const state = (role: string, at: string, status = 'active') => ({ role, state: at, status, updatedAt: '2024-05-01T12:00:01.000Z' });

describe('review: SOP state diagrams', () => {
  it('draws every hired role, marking the recorded state', async () => {
    const warnings: string[] = [];
    const views = await roleViewsOf(info(), [state('engineer', 'idle', 'done')], warnings);
    assert.deepEqual(
      views.map((v) => v.id),
      ['product-manager', 'architect', 'engineer', 'qa'],
    );
    const engineer = views.find((v) => v.id === 'engineer')!;
    assert.equal(engineer.marked, 'idle');
    assert.equal(engineer.status, 'done');
    assert.match(engineer.diagram!, /^stateDiagram-v2\n/);
    assert.match(engineer.diagram!, /class idle current/);
    const pm = views.find((v) => v.id === 'product-manager')!;
    assert.equal(pm.state, null, 'no state file: nothing recorded');
    assert.doesNotMatch(pm.diagram!, /class \S+ current/);
    assert.deepEqual(warnings, []);
  });

  it('marks nothing, and says why, when the recorded state is not in the SOP', async () => {
    const warnings: string[] = [];
    const [pm] = await roleViewsOf(info(), [state('product-manager', 'gone.away')], warnings);
    assert.equal(pm!.marked, null);
    assert.doesNotMatch(pm!.diagram!, /class \S+ current/);
    assert.match(warnings[0]!, /product-manager is recorded in state "gone\.away", which its SOP .* does not have/);
  });

  it('still lists the recorded states when the SOPs the run used are gone', async () => {
    const warnings: string[] = [];
    const views = await roleViewsOf(info('/no/such/sops'), [state('qa', 'testing')], warnings);
    assert.deepEqual(
      views.map((v) => [v.id, v.state, v.diagram]),
      [['qa', 'testing', null]],
    );
    assert.match(warnings[0]!, /The SOPs this run used \(\/no\/such\/sops, .*\) could not be loaded/);
  });

  it('finds nested states by their dotted path', () => {
    const sop = SopFile.parse({
      id: 'reviewer',
      initial: 'review',
      states: { review: { initial: 'reading', states: { reading: {}, deciding: {} } }, done: { type: 'final' } },
    });
    assert.equal(sopHasState(sop, 'review'), true);
    assert.equal(sopHasState(sop, 'review.deciding'), true);
    assert.equal(sopHasState(sop, 'done'), true);
    assert.equal(sopHasState(sop, 'review.writing'), false);
    assert.equal(sopHasState(sop, 'done.deciding'), false);
  });
});
