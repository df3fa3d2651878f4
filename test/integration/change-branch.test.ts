/**
 * The branch a maintainer would merge: by default the change alone (its code and tests, each commit
 * saying what it does) with the change's documents in the run folder; `--commit-documents` puts them on
 * the branch too; `--squash` makes a done change one commit titled by its change request, the same tree.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { GREETINGS_BRANCH as BRANCH, changeSetUp, git } from '../helpers/change-repo.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

const DOCS = 'docs/changes/1-let-greet-take-language-option';

describe('sopworks change: the branch a maintainer reviews', function () {
  this.timeout(300_000);
  after(removeTempDirs);

  it('commits the documents too with --commit-documents, and keeps none in the run folder', async () => {
    const run = await changeSetUp();
    const result = await run.change(['--commit-documents']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const files = git(run.repo, 'diff', '--name-only', `main...${BRANCH}`).trim().split('\n').sort();
    assert.deepEqual(files, [
      `${DOCS}/baseline-tests.md`,
      `${DOCS}/change-request.md`,
      `${DOCS}/design.md`,
      `${DOCS}/repository-map.md`,
      `${DOCS}/tasks.md`,
      `${DOCS}/test-reports/coverage.md`,
      `${DOCS}/test-reports/round-1.md`,
      'src/greet.js',
      'test/greet-lang.test.js',
    ]);
    await assert.rejects(fs.stat(path.join(run.worktree, '.sopworks', 'documents')), 'nothing kept out of the commits');
    assert.doesNotMatch(result.stdout, /Its documents \(not on the branch\)/);
    run.untouched();
  });

  it('makes a done change one commit with --squash: titled by the change request, its commits listed, the same tree', async () => {
    const plain = await changeSetUp();
    assert.equal((await plain.change()).code, 0);
    const run = await changeSetUp();
    const result = await run.change(['--squash']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(git(run.repo, 'rev-list', '--count', `main..${BRANCH}`).trim(), '1');
    assert.equal(git(run.repo, 'rev-parse', `${BRANCH}^`).trim(), git(run.repo, 'rev-parse', 'main').trim(), 'on the base');
    const message = git(run.repo, 'log', '-1', '--format=%B', BRANCH);
    assert.match(
      message,
      /^Greetings in French\n\n- feat: Greetings in French \(src\/greet\.js\)\n- test: Greetings in French\n\nSopworks-Message: msg-\d+\nSopworks-Message: msg-\d+\n/,
    );
    assert.equal(git(run.repo, 'rev-parse', `${BRANCH}^{tree}`), git(plain.repo, 'rev-parse', `${BRANCH}^{tree}`), 'the tree of the change as it was made');
    assert.equal(git(run.worktree, 'status', '--porcelain'), '', 'the work tree is the squashed commit');
    assert.match(result.stdout, /^The change is 1 commit on sopworks\/let-greet-take-language-option/m);
    run.untouched();
  });
});
