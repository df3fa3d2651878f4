/**
 * The git dirs a work tree's `.git` file points into: a linked work tree (`git worktree add`, which a
 * change run makes) has a `.git` file naming its own git dir (`<repository>/.git/worktrees/<name>`),
 * whose `commondir` names the repository's git dir — config, hooks, refs, objects: the user's.
 * Generated code that knows these paths can reach them in the weaker sandbox modes; the sandbox guards
 * them (git-dir-guard.ts). Only read, never followed through a link: the `.git` file is sopworks' own
 * and put back after every sandboxed command (integrity.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { inside } from './path-inside.ts';

/** A `.git` file is one line; anything bigger is not one git wrote. */
const MAX_GIT_FILE = 4096;

/** The git dirs, real paths, that `<workTree>/.git` (a file) points into; empty for a `.git` folder or none. */
export async function linkedGitDirs(workTree: string): Promise<string[]> {
  const dotGit = path.join(workTree, '.git');
  const stat = await fs.lstat(dotGit).catch(() => null);
  if (!stat?.isFile() || stat.size > MAX_GIT_FILE) return [];
  const named = /^gitdir: *(.+?)\s*$/m.exec(await fs.readFile(dotGit, 'utf8').catch(() => ''))?.[1];
  if (!named) return [];
  const gitDir = path.resolve(workTree, named);
  const common = (await fs.readFile(path.join(gitDir, 'commondir'), 'utf8').catch(() => '')).split('\n')[0]?.trim();
  const dirs = [common ? path.resolve(gitDir, common) : gitDir, gitDir];
  return outermost(await realDirs(dirs));
}

/** The folders that exist, as real paths, once each. */
export async function realDirs(dirs: readonly string[]): Promise<string[]> {
  const real: string[] = [];
  for (const dir of dirs) {
    const resolved = await fs.realpath(dir).catch(() => null);
    if (resolved && (await fs.stat(resolved).catch(() => null))?.isDirectory() && !real.includes(resolved)) real.push(resolved);
  }
  return real;
}

/** The folders not inside another of them: a work tree's git dir inside the repository's is guarded with it. */
export function outermost(dirs: readonly string[]): string[] {
  return dirs.filter((dir) => !dirs.some((other) => other !== dir && inside(dir, other)));
}
