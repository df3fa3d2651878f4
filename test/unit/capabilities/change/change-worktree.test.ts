/**
 * Two changes started at once on one branch: both pass the checks (the branch is free), and the one that
 * comes second to `git worktree add` is refused as the checks refuse a taken branch — exit 2, a message
 * and a hint — not with git's own words, and it leaves the winner's branch and work tree as they were.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkRepository } from '../../../../src/capabilities/change/check-repository.ts';
import { openWorktree } from '../../../../src/capabilities/change/open-worktree.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd, encoding: 'utf8' });

async function repository(): Promise<{ dir: string; repo: string }> {
  const dir = await tempDir('sopworks-worktree-');
  const repo = path.join(dir, 'repo');
  await fs.mkdir(repo);
  await fs.writeFile(path.join(repo, 'README.md'), '# repo\n');
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'start');
  return { dir, repo };
}

const refusal = async (work: Promise<unknown>): Promise<SopworksError> => {
  const error = await work.then(
    () => assert.fail('the second change was not refused'),
    (e: unknown) => e,
  );
  assert.ok(SopworksError.isInstance(error), `a SopworksError, not ${String(error)}`);
  return error;
};

describe('sopworks change: a branch taken while the change was starting', () => {
  after(removeTempDirs);

  it('refuses the change that comes second to the branch (exit 2), the first one untouched', async () => {
    const { dir, repo } = await repository();
    const ask = { request: 'add a farewell', force: false };
    const first = await checkRepository(repo, ask);
    const second = await checkRepository(repo, ask);
    await openWorktree(first, path.join(dir, 'out-a', 'change'));
    const winner = git(repo, 'rev-parse', first.branch);
    const error = await refusal(openWorktree(second, path.join(dir, 'out-b', 'change')));
    assert.equal(error.code, 'USAGE');
    assert.match(error.message, /^The branch sopworks\/add-farewell was created in .* while this change was starting; nothing was changed\.$/);
    assert.match(error.hint ?? '', /--branch <name>/);
    assert.doesNotMatch(error.message, /fatal|git worktree/);
    assert.equal(git(repo, 'rev-parse', first.branch), winner);
    assert.equal(git(path.join(dir, 'out-a', 'change'), 'symbolic-ref', '--short', 'HEAD').trim(), first.branch);
    await assert.rejects(fs.stat(path.join(dir, 'out-b', 'change')), 'the loser made no work tree');
  });

  it('refuses --force on a branch another change has checked out meanwhile, naming where', async () => {
    const { dir, repo } = await repository();
    git(repo, 'branch', 'sopworks/add-farewell');
    const forced = await checkRepository(repo, { request: 'add a farewell', force: true });
    const holder = path.join(dir, 'other', 'change');
    git(repo, 'worktree', 'add', '--quiet', holder, 'sopworks/add-farewell');
    const error = await refusal(openWorktree(forced, path.join(dir, 'out', 'change')));
    assert.equal(error.code, 'USAGE');
    assert.match(error.message, /is checked out in another work tree \(.*other\/change\)/);
    assert.equal(git(holder, 'symbolic-ref', '--short', 'HEAD').trim(), forced.branch, 'the other work tree keeps its branch');
    await assert.rejects(fs.stat(path.join(dir, 'out', 'change')), 'the refused work tree is removed');
    assert.equal(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 2, 'git knows no third work tree');
  });

  it('refuses a folder filled meanwhile with OUTPUT_EXISTS (exit 2), its files kept', async () => {
    const { dir, repo } = await repository();
    const target = await checkRepository(repo, { request: 'add a farewell', force: false, branch: 'feature/x' });
    const folder = path.join(dir, 'out', 'change');
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, 'notes.txt'), 'mine\n');
    const error = await refusal(openWorktree(target, folder));
    assert.equal(error.code, 'OUTPUT_EXISTS');
    assert.equal(await fs.readFile(path.join(folder, 'notes.txt'), 'utf8'), 'mine\n');
    assert.equal(git(repo, 'branch', '--list', 'feature/x'), '', 'no branch made');
  });
});
