/** The local engine's sequences: one per role when their memory is there, else one for all, said with why. */
import assert from 'node:assert/strict';
import { planSequences } from '../../../../../../src/capabilities/model/providers/local/role-sequences.ts';

describe('context sequences per role', () => {
  const GB = 1e9;
  // A model of 1 GB and 0.5 GB a sequence.
  const needed = (sequences: number) => GB + sequences * 0.5 * GB;

  it('gives each role a sequence when they fit', () => {
    assert.deepEqual(planSequences(4, needed, 4 * GB), { count: 4, notice: null });
  });

  it('gives every role one sequence when one each does not fit, and says what it would take', () => {
    const plan = planSequences(4, needed, 2 * GB);
    assert.equal(plan.count, 1);
    assert.match(plan.notice!, /^one context sequence for all 4 roles: one each would need about 3\.0 GB of RAM and 2\.0 GB is free/);
    assert.match(plan.notice!, /lower SOPWORKS_LOCAL_CONTEXT/);
  });

  it('opens one for a single role or none known', () => {
    assert.deepEqual(planSequences(1, needed, GB / 2), { count: 1, notice: null });
    assert.deepEqual(planSequences(0, needed, 4 * GB), { count: 1, notice: null });
  });
});
