/**
 * The run's figures read from its board: completeness counts the placeholders a run leaves, not those a
 * repository already had in a file the run edited (chalk's own `// TODO:` lines read as 25% complete).
 */
import assert from 'node:assert/strict';
import { runFigures } from '../../../../src/capabilities/project/index.ts';
import type { Message } from '../../../../src/engine/board/index.ts';

let seq = 0;
const code = (payload: Record<string, unknown>): Message => {
  seq++;
  return { id: `msg-${String(seq).padStart(6, '0')}`, seq, type: 'Code', from: 'engineer', to: 'all', causedBy: [], payload } as unknown as Message;
};

describe('run figures', () => {
  it("completeness counts the placeholders a run added to an edited file, not the repository's own", () => {
    const edited = [
      '// TODO: use replaceAll on Node 16',
      'export const strip = (s) => s;',
      '// TODO: use replaceAll on Node 16',
      '// TODO: handle OSC',
      '',
    ].join('\n');
    const figures = runFigures([
      code({ path: 'source/util.js', content: edited, review: null, inheritedPlaceholders: ['// TODO: use replaceAll on Node 16'] }),
      code({ path: 'source/index.js', content: '// FIXME: old\nexport {};\n', review: null, inheritedPlaceholders: ['// FIXME: old'] }),
      code({ path: 'source/new.js', content: '// TODO: write it\n', review: null, inheritedPlaceholders: null }),
    ]);
    assert.deepEqual(figures.completeness.incomplete, [
      { path: 'source/util.js', line: 3, why: 'a TODO left in the code' },
      { path: 'source/util.js', line: 4, why: 'a TODO left in the code' },
      { path: 'source/new.js', line: 1, why: 'a TODO left in the code' },
    ]);
    assert.equal(figures.completeness.complete, 1);
    assert.equal(figures.completeness.files, 3);
  });
});
