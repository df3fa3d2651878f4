/**
 * Checks a repository and the change asked of it before anything is written (exit 2 on a problem):
 * a git repository's top folder, with commits, a clean work tree, a base that exists (the current
 * branch's tip by default; a detached HEAD needs --base), a branch name that is free (unless --force)
 * and a request that says something. Read-only: only `git` queries run here.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { git } from '../../host/git/index.ts';
import { branchSlug } from './branch-slug.ts';

export interface ChangeTarget {
  /** The repository's top folder (absolute). */
  repo: string;
  /** The commit the change starts from, and how the user named it. */
  base: string;
  baseName: string;
  /** The branch the change is made on, e.g. sopworks/add-json-flag. */
  branch: string;
  /** Whether the branch exists already (only with --force: it is then reset to the base). */
  branchExists: boolean;
  /** A short name of the change, from the request. */
  slug: string;
}

export interface ChangeAsk {
  request: string;
  base?: string;
  branch?: string;
  force: boolean;
}

export const MAX_REQUEST = 4000;

const usage = (message: string, hint: string) => new SopworksError('USAGE', message, { hint });

/** Read-only git: no fsmonitor, no pager, no optional locks taken on the user's index. */
const query = (repo: string, args: string[], okCodes: number[] = []) => git(repo, ['-c', 'core.fsmonitor=false', '--no-optional-locks', ...args], { okCodes });

export async function checkRepository(repoArg: string, ask: ChangeAsk): Promise<ChangeTarget> {
  const request = ask.request.trim();
  if (request === '') {
    throw usage('The change request is empty.', 'Say what to change in one line: sopworks change <repo> "add a --json flag that prints the counts as JSON"');
  }
  if (request.length > MAX_REQUEST) {
    throw usage(
      `The change request is ${request.length} characters long; the limit is ${MAX_REQUEST}.`,
      'One line is enough: the Product Manager writes the details into the change request.',
    );
  }
  const repo = path.resolve(repoArg);
  const stat = await fs.stat(repo).catch(() => null);
  if (!stat?.isDirectory()) throw usage(`${repo} is not a folder.`, 'Give the folder of a git repository: sopworks change path/to/repo "<request>"');
  // `git` looks in this folder only (git-process.ts), so a folder inside a repository is not taken for it.
  const top = await query(repo, ['rev-parse', '--show-toplevel'], [128]);
  if (top.code !== 0 || path.resolve(top.stdout.trim()) !== repo) {
    const hint =
      top.code === 0
        ? `Give the repository's top folder: ${top.stdout.trim()}`
        : 'Give the top folder of a git repository (the one that holds .git), or run `git init` and commit first.';
    throw usage(`${repo} is not the top folder of a git repository.`, hint);
  }
  const head = await query(repo, ['symbolic-ref', '--quiet', 'HEAD'], [1]);
  if (head.code !== 0 && ask.base === undefined) {
    throw usage(
      `${repo} has a detached HEAD: there is no current branch to start the change from.`,
      'Say where the change starts with --base <branch or commit>.',
    );
  }
  const baseName = ask.base ?? head.stdout.trim().replace(/^refs\/heads\//, '');
  const resolved = await query(repo, ['rev-parse', '--verify', '--quiet', `${ask.base ?? 'HEAD'}^{commit}`], [1]);
  if (resolved.code !== 0) {
    throw ask.base === undefined
      ? usage(`${repo} has no commits yet: there is nothing to change.`, 'Commit the repository first, or use `sopworks run` to make a new one.')
      : usage(
          `Unknown base "${ask.base}" in ${repo}: no such branch, tag or commit.`,
          'Name a branch, tag or commit of the repository with --base (`git branch -a` lists them).',
        );
  }
  // Submodules are never looked into: their own config could name a filter that `status` would run.
  const dirty = await query(repo, ['status', '--porcelain', '--untracked-files=no', '--ignore-submodules=all']);
  if (dirty.stdout.trim() !== '') {
    const files = dirty.stdout
      .trimEnd()
      .split('\n')
      .slice(0, 5)
      .map((l) => l.slice(3));
    throw usage(
      `The work tree of ${repo} has uncommitted changes (${files.join(', ')}${dirty.stdout.trimEnd().split('\n').length > 5 ? ', …' : ''}).`,
      'Commit or stash them first: the change starts from a commit, and your work tree is never touched.',
    );
  }
  const slug = branchSlug(request);
  const branch = ask.branch ?? `sopworks/${slug}`;
  const valid = await query(repo, ['check-ref-format', '--branch', branch], [1, 128]);
  if (valid.code !== 0) throw usage(`"${branch}" is not a valid branch name.`, 'Choose another with --branch <name>.');
  const existing = await query(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], [1]);
  const branchExists = existing.code === 0;
  if (branchExists && !ask.force) {
    throw usage(
      `The branch ${branch} already exists in ${repo}; nothing was changed.`,
      'Name another with --branch <name>, or pass --force to start it again from the base.',
    );
  }
  if (branchExists && head.code === 0 && head.stdout.trim() === `refs/heads/${branch}`) {
    throw usage(`The branch ${branch} is the one checked out in ${repo}; it is never replaced.`, 'Name another with --branch <name>.');
  }
  return { repo, base: resolved.stdout.trim(), baseName, branch, branchExists, slug };
}
