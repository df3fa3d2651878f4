/**
 * The generated repository (real git): one commit per artifact whatever the batching, authors and
 * trailers kept, odd paths, a clean index at the end, a batch cut short by a crash, and a project folder
 * inside another repository.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Workspace } from '../../../../src/capabilities/repository/workspace.ts';
import { commitCommand, quotePath } from '../../../../src/host/git/index.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const exec = promisify(execFile);
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout;
const author = (name: string) => ({ name, email: `${name.toLowerCase().replace(/\s+/g, '-')}@sopworks.local` });

describe('workspace', () => {
  after(removeTempDirs);

  it('makes one commit per artifact, in the order asked, even when they are made in one batch', async () => {
    const root = path.join(await tempDir(), 'project');
    const workspace = await Workspace.create(root);
    // Asked for in one go: they go to git together, yet each is its own commit with its own author.
    const hashes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        workspace.commit({
          files: [{ path: `src/m${i}.js`, content: `export const m${i} = ${i};\n` }],
          author: author(i % 2 ? 'Engineer' : 'QA Engineer'),
          subject: `feat: add src/m${i}.js`,
          trailers: { 'Sopworks-Message': `msg-${String(i + 1).padStart(4, '0')}` },
        }),
      ),
    );
    await workspace.finish();
    const log = (await git(root, 'log', '--reverse', '--format=%H|%s|%an|%(trailers:key=Sopworks-Message,valueonly)')).trim().split('\n').filter(Boolean);
    assert.equal(log.length, 13);
    assert.equal(log[0]!.split('|')[1], 'chore: start the repository');
    log.slice(1).forEach((line, i) => {
      const [hash, subject, name, trailer] = line.split('|');
      assert.equal(hash, hashes[i]);
      assert.equal(subject, `feat: add src/m${i}.js`);
      assert.equal(name, i % 2 ? 'Engineer' : 'QA Engineer');
      assert.equal(trailer, `msg-${String(i + 1).padStart(4, '0')}`);
    });
    // Each commit holds exactly its own file on top of the one before.
    assert.equal((await git(root, 'show', '--name-only', '--format=', hashes[5]!)).trim(), 'src/m5.js');
    assert.equal(await git(root, 'status', '--porcelain'), '', 'the index follows the branch after finish()');
    assert.equal((await git(root, 'config', 'user.name')).trim(), 'sopworks');
    assert.deepEqual((await workspace.history()).map((c) => c.subject).slice(0, 2), ['chore: start the repository', 'feat: add src/m0.js']);
    assert.match((await workspace.history())[1]!.body, /^Sopworks-Message: msg-0001$/m);
  });

  it('commits paths with spaces, quotes and non-ASCII letters, and content that is not ASCII', async () => {
    const root = path.join(await tempDir(), 'project');
    const workspace = await Workspace.create(root);
    const files = [
      { path: 'docs/user guide.md', content: '# Guide\n' },
      { path: 'docs/"quoted".md', content: 'quotes\n' },
      { path: 'docs/naïve café.md', content: 'Grüße — ✓\n' },
    ];
    await workspace.commit({ files, author: author('Writer'), subject: 'docs: odd names', trailers: {} });
    await workspace.finish();
    assert.deepEqual((await workspace.trackedFiles()).sort(), ['.gitignore', ...files.map((f) => f.path)].sort());
    assert.equal(await git(root, 'show', 'HEAD:docs/naïve café.md'), 'Grüße — ✓\n');
    assert.equal(await fs.readFile(path.join(root, 'docs/"quoted".md'), 'utf8'), 'quotes\n');
    assert.equal(await git(root, 'status', '--porcelain'), '');
  });

  it('keeps the commits of a batch whole: a stream cut short (a crash) moves the branch not at all', async () => {
    const root = path.join(await tempDir(), 'project');
    const workspace = await Workspace.create(root);
    await workspace.commit({ files: [{ path: 'a.txt', content: 'a\n' }], author: author('PM'), subject: 'docs: a', trailers: {} });
    await workspace.finish();
    const before = (await git(root, 'rev-parse', 'HEAD')).trim();
    // What a killed sopworks leaves git with: commits sent, no `done`.
    const cut = commitCommand(
      'refs/heads/' + (await git(root, 'symbolic-ref', '--short', 'HEAD')).trim(),
      1,
      { files: [{ path: 'b.txt', content: 'b\n' }], author: author('PM'), committer: author('sopworks'), message: 'docs: b' },
      before,
    );
    await assert.rejects(
      new Promise<void>((resolve, reject) => {
        const child = execFile('git', ['fast-import', '--quiet', '--done', '--date-format=now'], { cwd: root }, (error) => (error ? reject(error) : resolve()));
        child.stdin!.end(cut);
      }),
    );
    assert.equal((await git(root, 'rev-parse', 'HEAD')).trim(), before);
    // A resumed run's workspace carries on from the last commit.
    const resumed = await Workspace.open(root);
    await resumed.recoverFromCrash();
    await resumed.commit({ files: [{ path: 'b.txt', content: 'b\n' }], author: author('PM'), subject: 'docs: b', trailers: {} });
    await resumed.finish();
    assert.deepEqual((await git(root, 'log', '--reverse', '--format=%s')).trim().split('\n'), ['chore: start the repository', 'docs: a', 'docs: b']);
  });

  it('makes the repository on resume when a crash came before its first commit', async () => {
    const root = path.join(await tempDir(), 'project');
    await Workspace.create(root); // no commit asked: no repository yet
    await assert.rejects(fs.access(path.join(root, '.git')));
    const resumed = await Workspace.open(root);
    assert.equal(await resumed.recoverFromCrash(), false);
    await resumed.commit({ files: [{ path: 'docs/prd.md', content: '# PRD\n' }], author: author('PM'), subject: 'docs: prd', trailers: {} });
    await resumed.finish();
    assert.deepEqual((await git(root, 'log', '--reverse', '--format=%s')).trim().split('\n'), ['chore: start the repository', 'docs: prd']);
  });

  it('never takes the repository around the output folder for the project (before its first commit, too)', async () => {
    const outer = await tempDir();
    await git(outer, 'init', '--quiet');
    await git(outer, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '--quiet', '--allow-empty', '-m', 'outer');
    const root = path.join(outer, 'output', 'project');
    const workspace = await Workspace.create(root);
    assert.deepEqual(await workspace.history(), []);
    assert.deepEqual(await workspace.trailerValues('Sopworks-Message'), new Set());
    await workspace.commit({ files: [{ path: 'x.md', content: 'x\n' }], author: author('PM'), subject: 'docs: x', trailers: {} });
    await workspace.finish();
    assert.deepEqual(
      (await workspace.history()).map((c) => c.subject),
      ['chore: start the repository', 'docs: x'],
    );
    assert.equal((await git(outer, 'log', '--format=%s')).trim(), 'outer');
  });

  it('fails the commits of a batch git cannot make with what git said, naming them', async () => {
    const root = path.join(await tempDir(), 'project');
    const workspace = await Workspace.create(root);
    await workspace.commit({ files: [{ path: 'a.txt', content: 'a\n' }], author: author('PM'), subject: 'docs: a', trailers: {} });
    await workspace.finish();
    // A repository git can no longer write objects to.
    await fs.rm(path.join(root, '.git', 'objects'), { recursive: true });
    await fs.writeFile(path.join(root, '.git', 'objects'), '');
    const asked = ['docs: b', 'docs: c'].map((subject) =>
      workspace.commit({ files: [{ path: `${subject.slice(6)}.txt`, content: 'x\n' }], author: author('PM'), subject, trailers: {} }),
    );
    for (const commit of asked) {
      await assert.rejects(commit, (error: unknown) => {
        const { code, message } = error as { code: string; message: string };
        return (
          code === 'GIT_FAILED' &&
          message.startsWith(`Could not commit 2 artifacts ("docs: b" … "docs: c"): git fast-import stopped (exit 128) in ${root}: fatal:`)
        );
      });
    }
  });

  it('quotes paths the way git fast-import reads them', () => {
    assert.equal(quotePath('a b/c.md'), '"a b/c.md"');
    assert.equal(quotePath('say "hi"\\.md'), '"say \\"hi\\"\\\\.md"');
    assert.equal(quotePath('tab\there'), '"tab\\there"');
  });
  it('holds commits until the last of overlapping or nested holds has ended, without waiting on itself', async () => {
    const root = path.join(await tempDir(), 'project');
    const workspace = await Workspace.create(root);
    await workspace.commit({ files: [{ path: 'a.txt', content: 'a\n' }], author: author('QA'), subject: 'first', trailers: {} });
    const head = () => git(root, 'rev-parse', 'HEAD');
    const before = await head();
    let letFirstEnd!: () => void;
    const firstRunning = new Promise<void>((resolve) => (letFirstEnd = resolve));
    let asked: Promise<string> | null = null;
    const first = workspace.withCommitsHeld(async () => {
      asked = workspace.commit({ files: [{ path: 'b.txt', content: 'b\n' }], author: author('QA'), subject: 'second', trailers: {} });
      // A second hold, nested, starts and ends while the first holds (a command inside a held round).
      await workspace.withCommitsHeld(async () => undefined);
      await firstRunning;
    });
    // A third overlaps the first, and ends before it.
    await workspace.withCommitsHeld(async () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await head(), before, 'no commit while the first hold is running');
    letFirstEnd();
    await first;
    await asked;
    assert.notEqual(await head(), before, 'the commit lands once the last hold ends');
    await workspace.finish();
  });
});
