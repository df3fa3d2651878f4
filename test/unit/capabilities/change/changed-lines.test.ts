/** Where each change to a file starts in its new content (render-diff.ts): what a long file is shown around. */
import assert from 'node:assert/strict';
import { changedLines } from '../../../../src/capabilities/change/render-diff.ts';

describe('the lines a change starts at', () => {
  it('names the first new line of each edit, a removal where the lines after it now start, and nothing for no change', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f'].join('\n');
    assert.deepEqual(changedLines(before, ['a', 'B', 'c', 'd', 'e', 'f', 'g'].join('\n')), [1, 5]);
    assert.deepEqual(changedLines(before, ['a', 'b', 'd', 'e', 'f'].join('\n')), [2]);
    assert.deepEqual(changedLines(before, before), []);
  });
});
