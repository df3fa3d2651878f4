import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { checkRelativePath, RelativePath, resolveInside } from '../../../../src/ground/files/safe-path.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const refusedWith = (candidate: string, reason: RegExp): void => {
  const result = checkRelativePath(candidate);
  assert.equal(result.ok, false, `expected "${candidate}" to be refused`);
  if (!result.ok) assert.match(result.reason, reason);
};

async function rejectsUnsafe(promise: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(SopworksError.isInstance(error), `expected a SopworksError, got ${String(error)}`);
    assert.equal(error.code, 'PATH_UNSAFE');
    assert.match(error.message, message);
    return true;
  });
}

describe('safe-path', () => {
  after(removeTempDirs);

  describe('checkRelativePath', () => {
    it('normalises ./, doubled slashes and backslashes into a forward-slash relative path', () => {
      assert.deepEqual(checkRelativePath('./a/b.js'), { ok: true, path: 'a/b.js' });
      assert.deepEqual(checkRelativePath('a//b.js'), { ok: true, path: 'a/b.js' });
      assert.deepEqual(checkRelativePath('a\\b\\c.js'), { ok: true, path: 'a/b/c.js' });
      assert.deepEqual(checkRelativePath('src/./lib/../index.js'), { ok: true, path: 'src/index.js' });
      assert.deepEqual(checkRelativePath('docs/'), { ok: true, path: 'docs' });
    });

    it('refuses absolute paths, POSIX and Windows', () => {
      refusedWith('/etc/passwd', /absolute/);
      refusedWith('C:\\x', /absolute/);
      refusedWith('c:/x', /absolute/);
      refusedWith('\\\\server\\share\\x', /absolute/);
    });

    it('refuses paths that leave the project with ..', () => {
      refusedWith('../x', /leaves the project/);
      refusedWith('a/../../x', /leaves the project/);
      refusedWith('..', /leaves the project/);
      refusedWith('a\\..\\..\\x', /leaves the project/);
    });

    it('refuses the empty path and the project root', () => {
      refusedWith('', /empty/);
      refusedWith('   ', /empty/);
      refusedWith('.', /project root/);
      refusedWith('./', /project root/);
      refusedWith('a/..', /project root/);
    });

    it('refuses the .git and .sopworks folders, however they are spelled', () => {
      refusedWith('.git/config', /\.git\/ is reserved/);
      refusedWith('.sopworks/board.jsonl', /\.sopworks\/ is reserved/);
      refusedWith('./.git/hooks/pre-commit', /\.git\/ is reserved/);
      refusedWith('src/../.git/config', /\.git\/ is reserved/);
      refusedWith('.git', /\.git\/ is reserved/);
    });

    it('accepts names that only look like the reserved folders', () => {
      assert.deepEqual(checkRelativePath('.gitignore'), { ok: true, path: '.gitignore' });
      assert.deepEqual(checkRelativePath('docs/.git-notes.md'), { ok: true, path: 'docs/.git-notes.md' });
    });

    it('refuses a name with a control character: it would forge a line in a prompt or a terminal', () => {
      for (const name of ['notes\nFAKE.md', 'a\rb.js', 'src/\x1b[2Jx.js', 'tab\tname.js', 'c1\u009bx.js', 'bidi\u202ecod.js'])
        refusedWith(name, /control character/);
    });

    it('refuses a NUL byte', () => {
      refusedWith('a\0b.js', /NUL/);
    });
  });

  describe('RelativePath (zod)', () => {
    it('parses to the normalised path', () => {
      assert.equal(RelativePath.parse('./src//a.js'), 'src/a.js');
    });

    it('fails with a message quoting the unsafe path and the reason', () => {
      const result = RelativePath.safeParse('../secret.txt');
      assert.equal(result.success, false);
      if (!result.success) {
        assert.equal(result.error.issues.length, 1);
        assert.match(result.error.issues[0]!.message, /unsafe path "\.\.\/secret\.txt": the path leaves the project/);
      }
    });
  });

  describe('resolveInside', () => {
    let root: string;
    let outside: string;

    beforeEach(async () => {
      root = await fs.realpath(await tempDir('sopworks-safe-root-'));
      outside = await fs.realpath(await tempDir('sopworks-safe-outside-'));
      await fs.writeFile(path.join(outside, 'secret.txt'), 'secret\n');
    });

    it('accepts a new nested path and returns it under the root', async () => {
      const resolved = await resolveInside(root, 'src/lib/deep/new.js');
      assert.equal(resolved, path.join(root, 'src', 'lib', 'deep', 'new.js'));
    });

    it('accepts an existing file and a symlink that stays inside the project', async () => {
      await fs.mkdir(path.join(root, 'src'));
      await fs.writeFile(path.join(root, 'src', 'a.js'), 'x');
      await fs.symlink(path.join(root, 'src', 'a.js'), path.join(root, 'alias.js'));
      assert.equal(await resolveInside(root, 'src/a.js'), path.join(root, 'src', 'a.js'));
      assert.equal(await resolveInside(root, 'alias.js'), path.join(root, 'alias.js'));
    });

    it('refuses the unsafe paths checkRelativePath refuses', async () => {
      await rejectsUnsafe(resolveInside(root, '../x'), /Refused path "\.\.\/x": the path leaves the project/);
      await rejectsUnsafe(resolveInside(root, '.git/config'), /\.git\/ is reserved/);
    });

    it('refuses a symlink inside the project that points to a file outside', async () => {
      await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
      await rejectsUnsafe(resolveInside(root, 'link.txt'), /symbolic link that points outside the project/);
    });

    it('refuses a path through a symlinked directory that points outside', async () => {
      await fs.symlink(outside, path.join(root, 'vendor'));
      await rejectsUnsafe(resolveInside(root, 'vendor/secret.txt'), /symbolic link that points outside the project/);
      await rejectsUnsafe(resolveInside(root, 'vendor/new/file.js'), /symbolic link that points outside the project/);
    });

    it('refuses a dangling symlink that points outside (writing through it would create a file outside)', async () => {
      const escapeTarget = path.join(outside, 'created-by-agent.txt');
      await fs.symlink(escapeTarget, path.join(root, 'dangling.txt'));
      await rejectsUnsafe(resolveInside(root, 'dangling.txt'), /symbolic link that points outside the project/);
    });
  });
});
