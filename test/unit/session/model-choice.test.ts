/** The model a session chooses, as the budget sees it: its price and the longest reply it may cost. */
import assert from 'node:assert/strict';
import { readSettings } from '../../../src/capabilities/model/index.ts';
import { priceOf, worstReplyTokens } from '../../../src/session/model-choice.ts';

describe("a session's model choice", () => {
  it('prices a local model at zero unless a price is set, and budgets for its continuations', () => {
    const llm = { kind: 'local' as const, model: '/m.gguf' };
    assert.deepEqual(priceOf(llm, readSettings({})), { inputPerMTok: 0, outputPerMTok: 0 });
    assert.deepEqual(priceOf(llm, readSettings({ SOPWORKS_PRICE_INPUT: '0.1', SOPWORKS_PRICE_OUTPUT: '0.2' })), { inputPerMTok: 0.1, outputPerMTok: 0.2 });
    assert.equal(worstReplyTokens(llm, readSettings({ SOPWORKS_MAX_OUTPUT_TOKENS: '100', SOPWORKS_MAX_CONTINUATIONS: '2' })), 300);
  });
});
