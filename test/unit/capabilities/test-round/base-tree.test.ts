/** The base's tree made again beside the change: the base's files, the install's folders, the work tree untouched, nothing left. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { BASE_TREE_DIR, withBaseTree } from '../../../../src/capabilities/test-round/base-tree.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd, encoding: 'utf8' }).trim();

describe('withBaseTree', () => {
  after(removeTempDirs);

  it("holds the base's files and the install's folders, and leaves the work tree as it was", async () => {
    const root = await tempDir('sopworks-base-tree-');
    const write = async (file: string, content: string | Buffer) => {
      await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await fs.writeFile(path.join(root, file), content);
    };
    git(root, 'init', '--quiet', '--initial-branch=main');
    await write('src/a.js', 'base a\n');
    await write('src/gone.js', 'removed by the change\n');
    await write('logo.bin', Buffer.from([0, 255, 128, 10]));
    await fs.chmod(path.join(root, 'src/gone.js'), 0o755);
    git(root, 'add', '.');
    git(root, 'commit', '--quiet', '-m', 'base');
    const base = git(root, 'rev-parse', 'HEAD');
    await write('src/a.js', 'changed a\n');
    await write('test/new.test.js', 'added by the change\n');
    await write('logo.bin', Buffer.from([1, 2, 3]));
    await fs.rm(path.join(root, 'src/gone.js'));
    git(root, 'add', '-A');
    git(root, 'commit', '--quiet', '-m', 'change');
    await write('node_modules/dep/index.js', 'installed\n');
    await write('.sopworks/board.jsonl', '{}\n');
    const head = git(root, 'rev-parse', 'HEAD');

    const seen = await withBaseTree(root, base, async (dir) => ({
      a: await fs.readFile(path.join(dir, 'src/a.js'), 'utf8'),
      gone: await fs.readFile(path.join(dir, 'src/gone.js'), 'utf8'),
      goneMode: (await fs.stat(path.join(dir, 'src/gone.js'))).mode & 0o777,
      logo: [...(await fs.readFile(path.join(dir, 'logo.bin')))],
      added: await fs.stat(path.join(dir, 'test/new.test.js')).then(
        () => true,
        () => false,
      ),
      installed: await fs.readFile(path.join(dir, 'node_modules/dep/index.js'), 'utf8'),
      record: await fs.stat(path.join(dir, '.sopworks')).then(
        () => true,
        () => false,
      ),
    }));
    assert.deepEqual(seen, {
      a: 'base a\n',
      gone: 'removed by the change\n',
      goneMode: 0o755,
      logo: [0, 255, 128, 10],
      added: false,
      installed: 'installed\n',
      record: false,
    });
    // The work tree is the branch as it was, and the copy is gone.
    assert.equal(await fs.readFile(path.join(root, 'src/a.js'), 'utf8'), 'changed a\n');
    assert.equal(git(root, 'rev-parse', 'HEAD'), head);
    assert.equal(git(root, 'status', '--porcelain'), '?? .sopworks/\n?? node_modules/'.trim());
    await assert.rejects(fs.stat(path.join(root, BASE_TREE_DIR)));
  });

  it('removes what an earlier, killed use left, and removes its copy when the work fails', async () => {
    const root = await tempDir('sopworks-base-tree-');
    git(root, 'init', '--quiet', '--initial-branch=main');
    await fs.writeFile(path.join(root, 'a.txt'), 'a\n');
    git(root, 'add', '.');
    git(root, 'commit', '--quiet', '-m', 'base');
    await fs.mkdir(path.join(root, BASE_TREE_DIR, 'project'), { recursive: true });
    await fs.writeFile(path.join(root, BASE_TREE_DIR, 'project', 'stale.txt'), 'left by a kill -9\n');
    await assert.rejects(
      withBaseTree(root, 'HEAD', async (dir) => {
        assert.deepEqual((await fs.readdir(dir)).sort(), ['a.txt']);
        throw new Error('the tests could not run');
      }),
      /could not run/,
    );
    await assert.rejects(fs.stat(path.join(root, BASE_TREE_DIR)));
  });
});
