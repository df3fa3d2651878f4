/** What `resume` says about a stopped run: whether it can go on, and whether a --hint can reach a step. */
import assert from 'node:assert/strict';
import { checkHintApplies, whyNotContinuable } from '../../../../src/engine/run/run-continuation.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';

const outcome = (payload: unknown) => ({ type: 'Outcome', from: 'qa', payload });

describe('run continuation', () => {
  it('says why a run its SOP concluded failed cannot be continued', () => {
    const why = whyNotContinuable([{ type: 'Requirement' }, outcome({ outcome: 'failed', reason: 'tests still fail after 3 rounds' })] as never);
    assert.match(why ?? '', /The qa's SOP concluded the run failed \(tests still fail after 3 rounds\)/);
  });

  it('says why a run its SOP concluded with criteria unmet cannot be continued either', () => {
    const why = whyNotContinuable([outcome({ outcome: 'criteria-unmet', reason: '1 of 2 P0 criteria unmet: AC-2 (no test cites it)' })] as never);
    assert.match(why ?? '', /The qa's SOP concluded the run delivered with criteria unmet \(1 of 2 P0 criteria unmet: AC-2/);
  });

  it('lets any other run go on', () => {
    assert.equal(whyNotContinuable([{ type: 'Requirement' }, { type: 'PRD' }] as never), null);
    assert.equal(whyNotContinuable([outcome({ outcome: 'done', reason: 'all tests pass' })] as never), null);
  });

  it('takes --hint for a step that failed on the model replies', () => {
    for (const reason of [
      'product-manager failed in step "writing": The model\'s reply for {…} was still invalid after 3 attempts: …',
      'architect failed in step "replanning": The model gave the same reply to {role: architect, action: fix_tasks, key: (none)} twice in a row',
      'engineer failed in step "writing": The model\'s replies for {…} kept stopping at the output limit: …',
    ]) {
      assert.doesNotThrow(() => checkHintApplies({ outcome: 'failed', reason }));
    }
  });

  it('refuses --hint where no step would be asked again, rather than ignore it', () => {
    for (const record of [{ outcome: 'interrupted', reason: 'stopped by the user' }, { outcome: 'failed', reason: 'the company stalled' }, {}]) {
      assert.throws(
        () => checkHintApplies(record),
        (error: unknown) => SopworksError.isInstance(error) && error.code === 'USAGE' && /--hint is for a run/.test(error.message),
      );
    }
  });
});
