/**
 * A change's diff against its base, file by file (apps/review/change-diff.ts), read from a real git
 * repository: a rename, a binary file, a name with a space and one beyond ASCII, a deleted file, a test
 * told by QA's message and by its path, an added line that itself starts "++ " — and a repository whose
 * config asks for no prefixes and a diff program, which the reading ignores.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readChangeDiff } from '../../../../src/apps/review/change-diff.ts';
import { renderChangeText } from '../../../../src/apps/review/change-diff-text.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(cwd) },
  }).trim();

describe('review: a change as a diff against its base', () => {
  let repo: string;
  let base: string;
  before(async () => {
    repo = path.join(await tempDir(), 'repo');
    await fs.mkdir(path.join(repo, 'src'), { recursive: true });
    await fs.writeFile(path.join(repo, 'src', 'old-name.js'), 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n');
    await fs.writeFile(path.join(repo, 'gone.txt'), 'bye\n');
    await fs.writeFile(path.join(repo, 'src', 'main.js'), 'console.log(1);\n');
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'base');
    base = git(repo, 'rev-parse', 'HEAD');
    git(repo, 'checkout', '-q', '-b', 'sopworks/x');
    git(repo, 'mv', 'src/old-name.js', 'src/new-name.js');
    git(repo, 'rm', '-q', 'gone.txt');
    await fs.writeFile(path.join(repo, 'src', 'main.js'), 'console.log(1);\n++ a line that starts with two pluses\n');
    await fs.writeFile(path.join(repo, 'src', 'my file.js'), 'export {};\n');
    await fs.writeFile(path.join(repo, 'src', 'café.js'), 'export {};\n');
    await fs.writeFile(path.join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0, 255]));
    await fs.mkdir(path.join(repo, 'checks'));
    await fs.writeFile(path.join(repo, 'checks', 'main.check.js'), 'assert(true);\n');
    await fs.writeFile(path.join(repo, 'src', 'main.test.js'), 'test();\n');
    await fs.mkdir(path.join(repo, 'docs', 'changes', '1-x'), { recursive: true });
    await fs.writeFile(path.join(repo, 'docs', 'changes', '1-x', 'change-request.md'), '# x\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'change');
    // A repository's own config may ask for other prefixes, quoting and a diff program: none of it applies.
    git(repo, 'config', 'diff.noprefix', 'true');
    git(repo, 'config', 'diff.mnemonicPrefix', 'true');
    git(repo, 'config', 'core.quotePath', 'true');
    git(repo, 'config', 'diff.external', '/bin/false');
  });
  after(removeTempDirs);

  const info = () => ({ change: { repo: '/somewhere/repo', base, baseName: 'main', branch: 'sopworks/x' } });
  const qaTests = [{ type: 'Tests', payload: { files: [{ path: 'checks/main.check.js', content: 'assert(true);\n' }] } }];

  it('lists every file once: code, then the tests (QA named them, or their path says so), then the documents', async () => {
    const view = await readChangeDiff(repo, info(), qaTests);
    assert.ok(view);
    assert.equal(view.problem, null);
    assert.deepEqual(
      view.files.map((f) => [f.kind, f.status, f.path, f.from, f.added, f.removed]),
      [
        ['code', 'added', 'logo.png', null, null, null],
        ['code', 'deleted', 'gone.txt', null, 0, 1],
        ['code', 'added', 'src/café.js', null, 1, 0],
        ['code', 'modified', 'src/main.js', null, 1, 0],
        ['code', 'added', 'src/my file.js', null, 1, 0],
        ['code', 'renamed', 'src/new-name.js', 'src/old-name.js', 0, 0],
        ['test', 'added', 'checks/main.check.js', null, 1, 0],
        ['test', 'added', 'src/main.test.js', null, 1, 0],
        ['document', 'added', 'docs/changes/1-x/change-request.md', null, 1, 0],
      ].sort(
        (a, b) =>
          ['code', 'test', 'document'].indexOf(a[0] as string) - ['code', 'test', 'document'].indexOf(b[0] as string) ||
          String(a[2]).localeCompare(String(b[2])),
      ),
    );
    const main = view.files.find((f) => f.path === 'src/main.js')!;
    assert.match(main.patch, /^diff --git a\/src\/main\.js b\/src\/main\.js$/m, 'the prefixes are a/ and b/ whatever the config says');
    assert.match(main.patch, /^\+\+\+ a line that starts with two pluses$/m, 'an added line starting "++ " is in its file\'s patch');
    assert.equal(view.files.find((f) => f.path === 'src/my file.js')!.patch.split('\n')[0], 'diff --git a/src/my file.js b/src/my file.js');
    assert.match(view.files.find((f) => f.path === 'src/café.js')!.patch, /^\+export \{\};$/m);
    assert.match(view.files.find((f) => f.path === 'logo.png')!.patch, /Binary files/);
    assert.deepEqual(view.commands, {
      review: `git -C /somewhere/repo diff ${base.slice(0, 12)}...sopworks/x`,
      merge: 'git -C /somewhere/repo merge sopworks/x',
      cleanUp: `git -C /somewhere/repo worktree remove ${repo} && git -C /somewhere/repo branch -d sopworks/x`,
    });
  });

  it('prints it for a terminal, every file listed with its counts and its patch', async () => {
    const text = renderChangeText((await readChangeDiff(repo, info(), qaTests))!).replace(/\x1b\[[0-9;]*m/g, '');
    assert.match(text, /^Change of \/somewhere\/repo on branch sopworks\/x, from main \([0-9a-f]{12}\)$/m);
    assert.match(text, /^ {2}9 files changed, \+6 −1; tests: checks\/main\.check\.js, src\/main\.test\.js$/m);
    assert.match(text, /^ {2}code A logo\.png +binary$/m);
    assert.match(text, /^ {2}code R src\/new-name\.js +\+0 −0 {2}\(from src\/old-name\.js\)$/m);
    assert.match(text, /^Clean up: {3}git -C \/somewhere\/repo worktree remove /m);
  });

  it('is null for a run that is not a change, and says why when its base cannot be read', async () => {
    assert.equal(await readChangeDiff(repo, { spec: 'x' }, []), null);
    assert.equal(await readChangeDiff(repo, { change: { ...info().change, base: '--output=/tmp/x' } }, []), null, 'a base that is not a commit id');
    const missing = await readChangeDiff(repo, { change: { ...info().change, base: 'f'.repeat(40) } }, []);
    assert.deepEqual(missing?.files, []);
    assert.match(missing?.problem ?? '', /the diff against ffffffffffff could not be read .*; see it with git -C \/somewhere\/repo diff/);
  });
});
