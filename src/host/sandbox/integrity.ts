/**
 * What generated code must never change, checked rather than assumed: the repository's metadata (its
 * config, hooks, info, HEAD and refs, the index, `objects/info` where alternates would live — everything
 * in `.git/` but the object store and the reflogs) and the run's record in `.sopworks/` (the board and
 * the exchange log may only grow, `run.json` and `lock` may not change, and nothing there may be a link).
 *
 * `snapshotProtected` is taken before a sandboxed command, `restoreProtected` after it: any difference
 * is a violation, undone on the spot (a file put back byte for byte, a planted file or link removed)
 * and named, so the run can stop on it. Every mode makes these paths unwritable (read-only binds under
 * bubblewrap, a scratch copy of the work tree otherwise); this check is what proves it held.
 * Nothing here follows a link: entries are read with lstat, links are recorded as links
 * (protected-entry.ts). A git dir outside the project — the user's repository, which a change run's
 * work tree points into — has a check of its own (git-dir-guard.ts).
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describeChange, type Entry, entryOf, listTree, restorable, restoreEntry, sameEntry } from './protected-entry.ts';

export interface ProtectedSnapshot {
  root: string;
  entries: Map<string, Entry>;
}

/** Folders of .git enumerated in full (a planted file there is a violation too). */
const GIT_TREES = ['hooks', 'info', 'refs', 'objects/info'];
/** Top-level .git entries not compared: the object store (content-addressed) and the reflogs. */
const GIT_SKIPPED = new Set(['objects', 'logs']);
/**
 * But its packs are, by identity (too big to copy): git reads a pack before loose objects and does not
 * re-hash what a pack's index names, so a planted pack could stand in for objects that exist. A planted
 * one is removed; one changed or removed is named, not put back (no copy is kept).
 */
const PACKS = '.git/objects/pack';
/** The end of the line of a change that could not be put back. */
export const NOT_RESTORED = '(cannot be put back: no copy is kept; run git fsck)';
const APPEND_ONLY = ['.sopworks/board.jsonl', '.sopworks/exchanges.jsonl'];
const FIXED = ['.sopworks/run.json', '.sopworks/lock'];
const MAX_ENTRIES = 5000;

/** The paths to compare, as they are now (enumerated folders list what is in them). */
async function protectedPaths(root: string): Promise<string[]> {
  const paths = ['.git', '.sopworks', ...APPEND_ONLY, ...FIXED];
  const git = await fs.lstat(path.join(root, '.git')).catch(() => null);
  if (git?.isDirectory()) {
    for (const name of await fs.readdir(path.join(root, '.git')).catch(() => [] as string[])) {
      if (GIT_SKIPPED.has(name)) continue;
      paths.push(`.git/${name}`);
      if (GIT_TREES.includes(name)) await listTree(root, `.git/${name}`, paths, MAX_ENTRIES);
    }
    paths.push('.git/objects/info', PACKS);
    await listTree(root, '.git/objects/info', paths, MAX_ENTRIES);
    await listTree(root, PACKS, paths, MAX_ENTRIES);
  }
  const state = await fs.lstat(path.join(root, '.sopworks')).catch(() => null);
  if (state?.isDirectory()) {
    // Only links are looked for here: sopworks itself writes other files of the record during a run.
    for (const name of await fs.readdir(path.join(root, '.sopworks')).catch(() => [] as string[])) {
      if ((await fs.lstat(path.join(root, '.sopworks', name)).catch(() => null))?.isSymbolicLink()) paths.push(`.sopworks/${name}`);
    }
  }
  return [...new Set(paths)];
}

/** One protected path as it is now: a log by its prefix, a pack by its identity, anything else whole. */
const read = (root: string, relative: string): Promise<Entry> =>
  entryOf(path.join(root, relative), { appendOnly: APPEND_ONLY.includes(relative), ...(relative.startsWith(`${PACKS}/`) ? { maxBytes: -1 } : {}) });

export async function snapshotProtected(projectDir: string): Promise<ProtectedSnapshot> {
  const root = await fs.realpath(projectDir);
  const entries = new Map<string, Entry>();
  for (const relative of await protectedPaths(root)) entries.set(relative, await read(root, relative));
  return { root, entries };
}

/** Puts one entry back as it was; children of a restored folder follow from their own entries. */
async function restore(root: string, relative: string, before: Entry, after: Entry, acceptLine: AcceptLine): Promise<void> {
  const file = path.join(root, relative);
  if (before.kind === 'prefix' && after.kind === 'prefix') {
    // What was there before is put back, and of what was appended, the lines sopworks wrote. In place:
    // sopworks' own log keeps this file open for appending. Read again: the run may have posted since.
    const current = await entryOf(file, { appendOnly: true });
    const grown = current.kind === 'prefix' && current.bytes.length >= after.bytes.length ? current : after;
    const handle = await fs.open(file, constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW);
    try {
      await handle.writeFile(Buffer.concat([before.bytes, Buffer.from(ownLines(relative, appended(before, grown), acceptLine))]));
    } finally {
      await handle.close();
    }
    return;
  }
  await restoreEntry(file, before, after);
}

/**
 * Whether a line appended to an append-only file of the record (relative path) was written by sopworks
 * itself — a run goes on posting while the tests run. Absent: nobody else writes, every line is foreign.
 */
export type AcceptLine = (relative: string, line: string) => boolean;

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

const appended = (before: Entry & { kind: 'prefix' }, after: Entry & { kind: 'prefix' }) => after.bytes.subarray(before.bytes.length).toString('utf8');

/** The appended lines sopworks wrote, each with its newline (a torn last line of its own stays). */
function ownLines(relative: string, text: string, acceptLine: AcceptLine): string {
  const lines = text.split('\n');
  const last = lines.pop()!;
  const kept = lines.filter((line) => acceptLine(relative, line)).map((line) => `${line}\n`);
  return kept.join('') + (last !== '' && acceptLine(relative, last) ? last : '');
}

/**
 * Compares the protected paths with the snapshot, puts back whatever changed, and returns what changed,
 * one line each (empty: nothing did).
 */
export async function restoreProtected(snapshot: ProtectedSnapshot, acceptLine: AcceptLine = () => false): Promise<string[]> {
  const { root, entries } = snapshot;
  const now = new Map<string, Entry>();
  for (const relative of new Set([...entries.keys(), ...(await protectedPaths(root))])) {
    now.set(relative, await read(root, relative));
  }
  const changed: string[] = [];
  // Parents first when putting back, children first when removing: sorted by depth both ways.
  const byDepth = [...now.keys()].sort((a, b) => a.split('/').length - b.split('/').length);
  for (const relative of byDepth) {
    const before = entries.get(relative) ?? { kind: 'absent' as const };
    const after = now.get(relative)!;
    let foreign = false;
    if (before.kind === 'prefix' && after.kind === 'prefix' && sameEntry(before, after)) {
      const isForeign = (entry: Entry) => entry.kind === 'prefix' && ownLines(relative, appended(before, entry), acceptLine) !== appended(before, entry);
      // A line sopworks is posting right now is on disk a moment before it is in the board's list.
      if (isForeign(after)) {
        await settle();
        foreign = isForeign(await entryOf(path.join(root, relative), { appendOnly: true }));
      }
      if (foreign) changed.push(`${relative} got lines sopworks did not write`);
    }
    if (sameEntry(before, after) && !foreign) continue;
    if (foreign) {
      await restore(root, relative, before, after, acceptLine).catch(() => undefined);
      continue;
    }
    // A file inside a planted (or removed) folder is named by its folder.
    if (!changed.some((line) => relative.startsWith(`${line.split(' ')[0]}/`)))
      changed.push(`${describeChange(relative, before, after)}${restorable(before) || before.kind === 'absent' ? '' : ` ${NOT_RESTORED}`}`);
    await restore(root, relative, before, after, acceptLine).catch(() => undefined);
  }
  // A second pass catches children of folders that were removed and had to be made again.
  for (const relative of byDepth) {
    const before = entries.get(relative);
    const current = () => read(root, relative);
    if (before && before.kind !== 'absent' && !sameEntry(before, await current())) {
      await restore(root, relative, before, await current(), acceptLine).catch(() => undefined);
    }
  }
  return changed;
}
