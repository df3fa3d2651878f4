import assert from 'node:assert/strict';
import { dollars, labelOf, shownValue } from '../../../../src/apps/review/human-labels.ts';

describe('review labels and units for people', () => {
  it('writes money in dollars, four decimals under a dollar', () => {
    assert.equal(dollars(0.0123), '$0.0123');
    assert.equal(dollars(0), '$0.0000');
    assert.equal(dollars(12.5), '$12.50');
  });

  it('names recorded fields as a person would', () => {
    assert.equal(labelOf('costUsd'), 'Cost');
    assert.equal(labelOf('budget'), 'Budget');
    assert.equal(labelOf('maxCostUsd'), 'Max cost');
    assert.equal(labelOf('spent_tokens'), 'Spent tokens');
  });

  it('gives values their units, and says none for what was not set', () => {
    assert.equal(shownValue('budget', { usd: 1.5, tokens: 20000 }), '$1.50, 20,000 tokens');
    assert.equal(shownValue('budget', { usd: null, tokens: null }), 'none');
    assert.equal(shownValue('costUsd', 0.0042), '$0.0042');
    assert.equal(shownValue('costUsd', null), 'none');
  });
});
