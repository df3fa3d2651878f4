/**
 * A git dir outside the project that generated code must not change: the user's repository, which a
 * change run's work tree points into (linked-git-dir.ts), and which the user's own git reads and runs —
 * its config, hooks, attributes, refs and objects. bubblewrap does not mount it (only the project is
 * writable there, and a git dir inside the project is bound read-only); the weaker modes cannot keep
 * code that knows its path away from it. So, in every mode, it is snapshotted before each sandboxed
 * command and compared after it (git-dir-layout.ts says how each path is compared):
 *
 * - everything but the object store and the reflogs — config, config.worktree, hooks, info (attributes,
 *   exclude), HEAD, refs, packed-refs, the index, worktrees/<name>, a rebase's todo list, submodules'
 *   git dirs — byte for byte, folders with their permissions: a change is put back and named, a
 *   planted entry removed;
 * - the object store cheaply, by identity (inode, size, modification and change times): a planted
 *   pack is moved out of git's sight into `sopworks-quarantine/` (git reads a pack before loose objects,
 *   so one could stand in for objects that exist; moved, not deleted: a `git gc` of the user's own
 *   running meanwhile writes packs too); an object or pack removed or changed is named, but cannot be
 *   put back (no copy is kept); a loose object added is let be (no ref names it);
 * - `*.lock` files not at all: they are git's own, of a git running meanwhile.
 *
 * Every folder is listed in full, before and after: only what is read of files is bounded. A git dir
 * too big to keep in memory, or with a folder that cannot be listed, is refused before the command
 * runs (git-dir-snapshot.ts); afterwards, a folder that cannot be listed is a violation
 * (git-dir-restore.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { restoreTree } from './git-dir-restore.ts';
import { type GitDirSnapshot, snapshotTree } from './git-dir-snapshot.ts';
import { linkedGitDirs, outermost, realDirs } from './linked-git-dir.ts';
import { inside } from './path-inside.ts';

export { QUARANTINE } from './git-dir-layout.ts';
export type { GitDirSnapshot } from './git-dir-snapshot.ts';

const LABEL = "the repository's git dir";

/**
 * The git dirs a command in `projectDir` must leave alone: those its `.git` file points into — never the
 * project's own `.git/` folder, which integrity.ts checks.
 */
export async function gitDirsToGuard(projectDir: string): Promise<string[]> {
  const own = path.join(projectDir, '.git');
  return outermost(await realDirs(await linkedGitDirs(projectDir))).filter((dir) => dir !== own);
}

/** The guarded dirs a bubblewrap sandbox must bind read-only: those inside the (writable) project. */
export const insideProject = (dirs: readonly string[], projectDir: string): string[] =>
  dirs.filter((dir) => inside(dir, projectDir)).map((dir) => path.relative(projectDir, dir));

/** Refused (a SopworksError) when the git dir cannot be listed in full or is too big to keep in memory. */
export async function snapshotGitDir(dir: string, options: { maxEntries?: number } = {}): Promise<GitDirSnapshot> {
  return snapshotTree(await fs.realpath(dir), { label: LABEL, ...options });
}

/** Compares with the snapshot, puts back what can be, and returns what changed, one line each, each saying what became of it. */
export async function restoreGitDir(snapshot: GitDirSnapshot): Promise<string[]> {
  const lines = await restoreTree(snapshot, { show: (relative) => relative || 'the git dir itself', plantedPacks: 'quarantine' });
  return lines.map((line) => `${LABEL}: ${line}`);
}
