/**
 * A git dir outside the project that generated code must not change: the user's repository, which a
 * change run's work tree points into (linked-git-dir.ts), and which the user's own git reads and runs —
 * its config, hooks, attributes, refs and objects. bubblewrap does not mount it (only the project is
 * writable there, and a git dir inside the project is bound read-only); the weaker modes cannot keep
 * code that knows its path away from it. So, in every mode, it is snapshotted before each sandboxed
 * command and compared after it:
 *
 * - everything but the object store and the reflogs — config, config.worktree, hooks, info (attributes,
 *   exclude), HEAD, refs, packed-refs, the index, worktrees/<name>, a rebase's todo list, submodules'
 *   git dirs — byte for byte: a change is put back and named;
 * - the object store cheaply, by identity (inode, size, modification and change times): a planted pack
 *   is moved out of git's sight into `sopworks-quarantine/` (git reads a pack before loose objects, so
 *   one could stand in for objects that exist; moved, not deleted: a `git gc` of the user's own running
 *   meanwhile writes packs too); an object or pack removed or changed is named, but cannot be put back
 *   (no copy is kept); a loose object added is let be (no ref names it);
 * - `*.lock` files not at all: they are git's own, of a git running meanwhile.
 *
 * Bounded: at most MAX_ENTRIES entries, what can run a program first (config, hooks, info), the object
 * store last; past the bound nothing is checked, and the sandbox says so as a gap.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { linkedGitDirs, outermost, realDirs } from './linked-git-dir.ts';
import { inside } from './path-inside.ts';
import PQueue from 'p-queue';
import { describeChange, type Entry, entryOf, restorable, restoreEntry, sameEntry } from './protected-entry.ts';

const MAX_ENTRIES = 20_000;
/** Bigger files (a huge index) are recorded by identity: a change is seen, but not put back. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** A git dir's entries in the order they are listed: what can run a program or move history first. */
const FIRST = ['config', 'config.worktree', 'commondir', 'gitdir', 'HEAD', 'hooks', 'info', 'packed-refs', 'worktrees', 'refs', 'index'];
const LOOSE_FOLDER = /^[0-9a-f]{2}$/;
const LABEL = "the repository's git dir";
/** Where planted packs are moved: a folder of the git dir that git never reads, and this check skips. */
export const QUARANTINE = 'sopworks-quarantine';

type Kind = 'meta' | 'object';

export interface GitDirSnapshot {
  root: string;
  entries: Map<string, Entry>;
  kinds: Map<string, Kind>;
  /** Over MAX_ENTRIES: the rest was not listed. */
  truncated: boolean;
}

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

const byPriority = (a: { name: string }, b: { name: string }) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const rank = (name: string) => (FIRST.includes(name) ? FIRST.indexOf(name) : FIRST.length);

/** Every path to compare, with how it is compared. */
async function listGitDir(root: string): Promise<{ paths: Map<string, Kind>; truncated: boolean }> {
  const paths = new Map<string, Kind>();
  const stores: string[] = [];
  let truncated = false;
  const add = (relative: string, kind: Kind) => {
    if (paths.size >= MAX_ENTRIES) truncated = true;
    else paths.set(relative, kind);
    return !truncated;
  };
  const walk = async (relative: string): Promise<void> => {
    const entries = (await fs.readdir(path.join(root, relative), { withFileTypes: true }).catch(() => [])).sort(byPriority);
    // A git dir (the repository's, a work tree's, a submodule's) has a HEAD; its logs and objects are its own.
    const gitDir = entries.some((entry) => entry.name === 'HEAD');
    for (const entry of entries) {
      const child = path.posix.join(relative, entry.name);
      if (entry.name.endsWith('.lock') || (gitDir && entry.name === 'logs') || (relative === '' && entry.name === QUARANTINE)) continue;
      if (gitDir && entry.name === 'objects' && entry.isDirectory()) {
        stores.push(child);
        continue;
      }
      if (!add(child, 'meta')) return;
      if (entry.isDirectory()) await walk(child);
    }
  };
  await walk('');
  for (const store of stores) {
    if (!add(store, 'object')) break;
    for (const entry of (await fs.readdir(path.join(root, store), { withFileTypes: true }).catch(() => [])).sort(byPriority)) {
      const child = path.posix.join(store, entry.name);
      if (entry.name === 'info') {
        if (add(child, 'meta')) await walk(child);
      } else if (entry.isDirectory() && (entry.name === 'pack' || LOOSE_FOLDER.test(entry.name))) {
        if (!add(child, 'object')) break;
        for (const name of (await fs.readdir(path.join(root, child)).catch(() => [] as string[])).sort()) {
          if (!name.endsWith('.lock') && !add(path.posix.join(child, name), 'object')) break;
        }
      }
      // Anything else there is a git's temporary folder (incoming-*, tmp_objdir-*): not compared.
    }
  }
  return { paths, truncated };
}

const read = (root: string, relative: string, kind: Kind) => entryOf(path.join(root, relative), { maxBytes: kind === 'object' ? -1 : MAX_FILE_BYTES });

/** How many entries are read at once: a git dir has thousands, and each is an lstat (and a read). */
const READS_AT_ONCE = 32;

/** Every path as it is now, read a few dozen at a time (p-queue). */
async function readAll(root: string, paths: ReadonlyMap<string, Kind>): Promise<Map<string, Entry>> {
  const queue = new PQueue({ concurrency: READS_AT_ONCE });
  const reads = [...paths].map(([relative, kind]) => queue.add(async () => [relative, await read(root, relative, kind)] as const));
  return new Map(await Promise.all(reads));
}

export async function snapshotGitDir(dir: string): Promise<GitDirSnapshot> {
  const root = await fs.realpath(dir);
  const { paths, truncated } = await listGitDir(root);
  return { root, entries: await readAll(root, paths), kinds: paths, truncated };
}

/** Compares with the snapshot, puts back what can be, and returns what changed, one line each. */
export async function restoreGitDir(snapshot: GitDirSnapshot): Promise<string[]> {
  const { root, entries } = snapshot;
  const kinds = new Map([...snapshot.kinds, ...(await listGitDir(root)).paths]);
  const changes: string[] = [];
  const lost: string[] = [];
  // Parents first when putting back, children first when removing: sorted by depth both ways.
  const byDepth = [...kinds.keys()].sort((a, b) => a.split('/').length - b.split('/').length);
  // All read at once first: mostly nothing changed. What did is read again in order, as parents are put back.
  const now = await readAll(root, kinds);
  let restored = false;
  for (const relative of byDepth) {
    const kind = kinds.get(relative)!;
    const before = entries.get(relative) ?? { kind: 'absent' as const };
    if (sameEntry(before, now.get(relative)!)) continue;
    const after = await read(root, relative, kind);
    if (sameEntry(before, after)) continue;
    const file = path.join(root, relative);
    if (kind === 'object' && before.kind !== 'dir') {
      // A pack is read before loose objects: one planted could stand in for objects that exist.
      if (before.kind === 'absent' && /\/pack\/[^/]+$/.test(relative)) {
        const moved = await quarantine(root, relative).catch(() => null);
        changes.push(`${relative} was planted (${moved ? `moved to ${moved}` : 'could not be moved away'})`);
      } else if (before.kind !== 'absent') lost.push(relative);
      continue;
    }
    // A file inside a planted (or removed) folder is named by its folder.
    if (!changes.some((line) => relative.startsWith(`${line.split(' ')[0]}/`))) {
      changes.push(
        `${describeChange(relative, before, after)} ${restorable(before) || before.kind === 'absent' ? '(restored)' : '(cannot be put back: too big to keep a copy)'}`,
      );
    }
    await restoreEntry(file, before, after).catch(() => undefined);
    restored = true;
  }
  // A second pass catches children of folders that were removed and had to be made again (or read,
  // all at once above, through a folder that was a link then).
  for (const relative of restored ? byDepth : []) {
    const before = entries.get(relative);
    const kind = kinds.get(relative)!;
    if (!before || before.kind === 'absent' || (kind === 'object' && before.kind !== 'dir')) continue;
    const after = await read(root, relative, kind);
    if (!sameEntry(before, after)) await restoreEntry(path.join(root, relative), before, after).catch(() => undefined);
  }
  if (lost.length > 0) {
    const shown = lost.slice(0, 3).join(', ') + (lost.length > 3 ? `, and ${lost.length - 3} more` : '');
    changes.push(`${lost.length} object file(s) removed or changed (${shown}) (cannot be put back: no copy of the object store is kept; run git fsck)`);
  }
  return changes.map((change) => `${LABEL}: ${change}`);
}

/** Moves a planted file into the quarantine folder (same filesystem: a rename); returns where, relative. */
async function quarantine(root: string, relative: string): Promise<string> {
  const target = path.posix.join(QUARANTINE, `${Date.now()}-${relative.replaceAll('/', '_')}`);
  const folder = path.join(root, QUARANTINE);
  await fs.mkdir(folder).catch(() => undefined);
  // Never into a link: a folder planted under this name could point anywhere.
  if (!(await fs.lstat(folder)).isDirectory()) throw new Error(`${QUARANTINE} is not a folder`);
  await fs.rename(path.join(root, relative), path.join(root, target));
  return target;
}

/** What the guard could not look at: a git dir over the bound. */
export const unguarded = (snapshots: readonly GitDirSnapshot[]): string[] =>
  snapshots.some((snapshot) => snapshot.truncated)
    ? [`${LABEL}: over ${MAX_ENTRIES} entries; changes past them (the object store first) were not looked for`]
    : [];
