/**
 * The map's file tree within its token budget: listed whole when it fits; else the folders that say the
 * least about the code folded into a line that says what they hold — docs and changelog fragments first,
 * then examples, then tests — while every source file of the package stays listed.
 */
import assert from 'node:assert/strict';
import { countTokens } from 'gpt-tokenizer';
import { foldedTree } from '../../../../../src/capabilities/change/map/fold-tree.ts';
import { readTree, renderTree } from '../../../../../src/capabilities/change/map/render-tree.ts';
import { largePythonFiles } from '../../../../helpers/large-python-repo.ts';

describe('the folded file tree', () => {
  const files = [...largePythonFiles().keys()].sort();

  it('is the whole tree when it fits its budget', () => {
    const small = ['README.md', 'src/a.js', 'src/b.js', 'test/a.test.js'];
    assert.deepEqual(foldedTree(small, 1200), { tree: renderTree(small), folded: 0 });
  });

  it("folds a 680-file repository's docs, changelog, examples and tests to fit, and keeps every source file of its package listed", () => {
    assert.equal(files.length, 680);
    assert.ok(countTokens(renderTree(files)) > 3000, 'the whole tree is far over the budget');
    const { tree, folded } = foldedTree(files, 1200);
    assert.ok(countTokens(tree) <= 1200, `${countTokens(tree)} tokens`);
    assert.ok(folded > 0);
    const listed = readTree(tree);
    for (const file of files.filter((f) => f.startsWith('src/'))) assert.ok(listed.includes(file), `${file} is listed`);
    assert.match(tree, /^changelog\/: … 56 files, not listed \(\.rst 56\)$/m);
    assert.match(tree, /^doc\/: … 195 files in 6 folders, not listed \(\.rst 170, \.py 25\)$/m);
    // Every file is listed or counted once.
    const counted = [...tree.matchAll(/: … (\d+) files/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    assert.equal(listed.length + counted, files.length);
  });

  it('folds the least telling folders first: nothing of the package while docs or tests could go', () => {
    const { tree } = foldedTree(files, 2000);
    assert.doesNotMatch(tree, /^src\/.*: … /m);
    assert.match(tree, /^changelog\/: … /m);
  });
});
