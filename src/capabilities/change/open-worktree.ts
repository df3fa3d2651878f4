/**
 * Makes the change's own work tree: `git worktree add` of a new branch at the base, in the project
 * folder sopworks owns (under --out), so the user's branch, work tree, index and untracked files are
 * never touched. The run's state (.sopworks/) lives in that folder, kept out of git's sight by the
 * repository's info/exclude — never committed, never in the user's work tree.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { git } from '../../host/git/git-process.ts';
import { STATE_DIR } from '../../engine/run/state-dir.ts';
import type { ChangeTarget } from './check-repository.ts';

/** No hook of the user's repository runs for sopworks' own work tree. */
const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];

export async function openWorktree(target: ChangeTarget, dir: string): Promise<void> {
  // A work tree of an earlier run of this change, removed by --force: git forgets it first.
  await git(target.repo, [...NO_HOOKS, 'worktree', 'prune']);
  await git(target.repo, [...NO_HOOKS, 'worktree', 'add', '--quiet', target.branchExists ? '-B' : '-b', target.branch, dir, target.base]);
  await fs.mkdir(path.join(dir, STATE_DIR), { recursive: true });
  await excludeStateDir(target.repo);
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
