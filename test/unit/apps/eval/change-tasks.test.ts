/**
 * Change tasks of an eval suite (docs/eval.md, "Change tasks"): a task's `change:` is checked with the
 * rest of the suite file, and its repository is made from the source without touching it — a plain
 * folder committed as it is with a fixed author and date (the same commit every time), a git repository
 * cloned at the commit named — and a commit that is not there, or a commit of a plain folder, is refused
 * with a hint.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { changeRepository } from '../../../../src/apps/eval/change-repository.ts';
import { loadSuite } from '../../../../src/apps/eval/suite-file.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { git } from '../../../helpers/change-repo.ts';
import { ROOT } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const refused = (pattern: RegExp) => (e: unknown) => SopworksError.isInstance(e) && pattern.test(e.message) && Boolean(e.hint);

describe('eval: change tasks', () => {
  after(removeTempDirs);

  it('refuses at file:line a change task whose repository is no folder, or whose change: has a key it does not know', async () => {
    const dir = await tempDir('sopworks-eval-tasks-');
    await fs.writeFile(path.join(dir, 'a-file'), 'not a folder\n');
    const suite = path.join(dir, 'suite.yaml');
    await fs.writeFile(
      suite,
      [
        'name: tasks',
        'specs:',
        '  - name: one',
        '    spec: change it',
        '    change: { repo: missing }',
        '  - name: two',
        '    spec: change it',
        '    change: { repo: a-file }',
        '',
      ].join('\n'),
    );
    await assert.rejects(loadSuite(suite), (e: unknown) => {
      assert.ok(SopworksError.isInstance(e));
      assert.match(e.message, /2 problem/);
      assert.match(e.message, /suite\.yaml:5:\d+.*specs\.0\.change\.repo: .*missing is not a folder/);
      assert.match(e.message, /suite\.yaml:8:\d+.*specs\.1\.change\.repo: .*a-file is not a folder/);
      return true;
    });
    await fs.writeFile(suite, 'name: tasks\nspecs:\n  - name: one\n    spec: change it\n    change: { repo: ., branch: main }\n');
    await assert.rejects(loadSuite(suite), (e: unknown) => SopworksError.isInstance(e) && /suite\.yaml:5:\d+.*Unrecognized key: "branch"/.test(e.message));
  });

  it("makes a plain folder's repository as the same commit every time, and leaves the folder alone", async () => {
    const source = path.join(await tempDir('sopworks-eval-tasks-'), 'lib');
    await fs.mkdir(source);
    await fs.writeFile(path.join(source, 'index.js'), 'export const one = 1;\n');
    const first = await changeRepository(await tempDir('sopworks-eval-out-'), 'lib', { repo: source, commit: null });
    const second = await changeRepository(await tempDir('sopworks-eval-out-'), 'lib', { repo: source, commit: null });
    assert.equal(git(first, 'rev-parse', 'main').trim(), git(second, 'rev-parse', 'main').trim());
    assert.equal(git(first, 'status', '--porcelain'), '');
    assert.deepEqual(await fs.readdir(source), ['index.js'], 'no .git made in the source');
    await assert.rejects(changeRepository(await tempDir('sopworks-eval-out-'), 'lib', { repo: source, commit: 'v1' }), refused(/is not a git repository/));
  });

  it('clones a git repository at the commit named, as main, and refuses a commit it does not have', async () => {
    const source = path.join(await tempDir('sopworks-eval-tasks-'), 'lib');
    await fs.mkdir(source);
    git(source, 'init', '--quiet', '--initial-branch=trunk');
    await fs.writeFile(path.join(source, 'v.txt'), '1\n');
    git(source, 'add', '.');
    git(source, 'commit', '--quiet', '-m', 'one');
    git(source, 'tag', 'v1');
    await fs.writeFile(path.join(source, 'v.txt'), '2\n');
    git(source, 'commit', '--quiet', '-am', 'two');
    const before = git(source, 'rev-parse', 'HEAD');

    const repo = await changeRepository(await tempDir('sopworks-eval-out-'), 'lib', { repo: source, commit: 'v1' });
    assert.equal(git(repo, 'symbolic-ref', 'HEAD').trim(), 'refs/heads/main');
    assert.equal(await fs.readFile(path.join(repo, 'v.txt'), 'utf8'), '1\n');
    assert.equal(git(source, 'rev-parse', 'HEAD'), before, 'the source is untouched');
    await assert.rejects(
      changeRepository(await tempDir('sopworks-eval-out-'), 'lib', { repo: source, commit: 'no-such-tag' }),
      refused(/No commit "no-such-tag"/),
    );
    await assert.rejects(
      changeRepository(await tempDir('sopworks-eval-out-'), 'lib', { repo: source, commit: '--upload-pack=touch /tmp/x' }),
      refused(/No commit/),
    );
  });
});

describe('eval: change tasks on a public repository named by URL', () => {
  after(removeTempDirs);

  it('loads the shipped suite of real repositories, each pinned to a full commit hash', async () => {
    const suite = await loadSuite(path.join(ROOT, 'examples', 'eval', 'change', 'real.yaml'));
    assert.ok(suite.specs.length >= 5);
    for (const spec of suite.specs) {
      assert.ok(spec.change && 'url' in spec.change, `${spec.name} names its repository by URL`);
      assert.match(spec.change.url, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
      assert.match(spec.change.commit, /^[0-9a-f]{40}$/);
    }
  });

  it('refuses a URL without a pinned commit, and a task with both a folder and a URL', async () => {
    const dir = await tempDir('sopworks-eval-url-');
    const suite = path.join(dir, 'suite.yaml');
    await fs.writeFile(
      suite,
      [
        'name: tasks',
        'specs:',
        '  - name: one',
        '    spec: change it',
        '    change: { url: "https://example.com/a.git", commit: main }',
        '  - name: two',
        '    spec: change it',
        '    change: { url: "https://example.com/a.git", repo: ".", commit: "0123456789012345678901234567890123456789" }',
        '',
      ].join('\n'),
    );
    await assert.rejects(loadSuite(suite), (e: unknown) => {
      assert.ok(SopworksError.isInstance(e));
      assert.match(e.message, /a `url:` needs `commit:`, a full 40-hex commit hash/);
      assert.match(e.message, /give either `repo:` \(a folder\) or `url:` \(a repository to clone\), not both/);
      return true;
    });
  });

  it('says a repository it cannot clone could not be cloned, and what to do, leaving nothing behind', async () => {
    const out = await tempDir('sopworks-eval-url-out-');
    // A local port nothing listens on: no host outside this machine is called.
    const url = 'https://127.0.0.1:9/nothing.git';
    await assert.rejects(
      changeRepository(out, 'offline', { url, commit: '0123456789012345678901234567890123456789' }),
      refused(/^The change task offline's repository https:\/\/127\.0\.0\.1:9\/nothing\.git could not be cloned: /),
    );
    await assert.rejects(fs.stat(path.join(out, '.repositories', 'offline')));
  });
});
