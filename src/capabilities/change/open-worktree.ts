/**
 * Makes the change's own work tree: `git worktree add` of a new branch at the base, in the project
 * folder sopworks owns (under --out), so the user's branch, work tree, index and untracked files are
 * never touched. The run's state (.sopworks/) lives in that folder, kept out of git's sight by the
 * repository's info/exclude — never committed, never in the user's work tree. Another change that took
 * the branch (or the folder) since the checks is refused as the checks refuse it (exit 2), not with git's
 * own words.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { STATE_DIR } from '../../engine/run/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { git } from '../../host/git/index.ts';
import type { ChangeTarget } from './check-repository.ts';

/**
 * No hook of the user's repository runs for sopworks' own work tree, and no filter its attributes name
 * runs on checkout: git-process.ts hardens every git (git-hardening.ts); these flags only repeat it.
 */
const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];

export async function openWorktree(target: ChangeTarget, dir: string): Promise<void> {
  // A work tree of an earlier run of this change, removed by --force: git forgets it first.
  await git(target.repo, [...NO_HOOKS, 'worktree', 'prune']);
  // Detached first, then the branch in it: git makes a branch before it looks at the folder, so a folder
  // taken meanwhile would otherwise leave a stray branch in the user's repository.
  const added = await git(target.repo, [...NO_HOOKS, 'worktree', 'add', '--quiet', '--detach', dir, target.base]).catch((error: unknown) => error);
  if (added instanceof Error) throw (await folderTaken(dir)) ?? added;
  // `switch -C` (git 2.39) would reset a branch another work tree has checked out: that is looked at first.
  const held = target.branchExists ? await branchTaken(target, dir) : null;
  const switched =
    held ?? (await git(dir, [...NO_HOOKS, 'switch', '--quiet', target.branchExists ? '-C' : '-c', target.branch]).catch((error: unknown) => error));
  if (switched instanceof Error) {
    await git(target.repo, [...NO_HOOKS, 'worktree', 'remove', '--force', dir]);
    throw (await branchTaken(target, dir)) ?? switched;
  }
  await fs.mkdir(path.join(dir, STATE_DIR), { recursive: true });
  await excludeStateDir(target.repo);
}

const MEANWHILE = 'Another `sopworks change` is probably starting there now: let it finish, or name another branch with --branch <name> (or another --out).';

/** Why the branch could not be made when the checks had passed: another change (two started at once) made it or checked it out. */
async function branchTaken(target: ChangeTarget, dir: string): Promise<SopworksError | null> {
  const branch = await git(target.repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${target.branch}`], { okCodes: [1] });
  if (branch.code === 0 && !target.branchExists) {
    return new SopworksError('USAGE', `The branch ${target.branch} was created in ${target.repo} while this change was starting; nothing was changed.`, {
      hint: MEANWHILE,
    });
  }
  const list = await git(target.repo, ['worktree', 'list', '--porcelain']);
  const holder = list.stdout
    .split('\n\n')
    .find((entry) => entry.split('\n').includes(`branch refs/heads/${target.branch}`) && !entry.startsWith(`worktree ${dir}\n`));
  if (!holder) return null;
  const where = holder.split('\n')[0]!.replace(/^worktree /, '');
  return new SopworksError('USAGE', `The branch ${target.branch} is checked out in another work tree (${where}); nothing was changed.`, { hint: MEANWHILE });
}

/** Why the work tree could not be added: its folder was filled since the checks. */
async function folderTaken(dir: string): Promise<SopworksError | null> {
  const entries = await fs.readdir(dir).catch(() => null);
  if (!entries || entries.length === 0) return null;
  return new SopworksError('OUTPUT_EXISTS', `The folder ${dir} was filled while this change was starting; nothing was changed in it.`, { hint: MEANWHILE });
}

/** `.sopworks/` in the repository's info/exclude (shared by its work trees), added once. */
async function excludeStateDir(repo: string): Promise<void> {
  const { stdout } = await git(repo, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const file = path.join(stdout.trim(), 'info', 'exclude');
  const current = await fs.readFile(file, 'utf8').catch(() => '');
  const line = `/${STATE_DIR}/`;
  if (current.split('\n').includes(line)) return;
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.appendFile(file, `${current === '' || current.endsWith('\n') ? '' : '\n'}# sopworks change: the run's state in its own work tree\n${line}\n`);
}
