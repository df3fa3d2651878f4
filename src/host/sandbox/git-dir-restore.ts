/**
 * A guarded git dir after a sandboxed command, compared with its snapshot (git-dir-snapshot.ts) and put
 * back. The folders are walked as they are now, entry by entry as the system lists them (a stream:
 * nothing of a flood is held in memory, so nothing needs a bound), every entry of every folder the
 * snapshot knows:
 *
 * - an entry the snapshot does not know was planted: removed (or, when it cannot be, moved to the
 *   quarantine); a planted pack moved to the quarantine or removed; a loose object added let be;
 * - an entry that changed is put back (a file rewritten, a folder's permissions set back); an object
 *   changed or removed is named (no copy is kept);
 * - an entry of the snapshot not met on the way was removed (or its folder replaced): made again;
 * - a folder that cannot be listed is named: its content moved to the quarantine and the folder made
 *   again from the snapshot — or, for the object store, whose content cannot be made again, named as
 *   not checked. Never "restored" when it was not.
 *
 * Every line says what became of the change; the run stops on any of them (an `integrity` violation).
 */
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertMayWrite } from '../../ground/files/index.ts';
import { ChangeReport, type Verb } from './change-report.ts';
import { inPacks, QUARANTINE, type Role, roleOf } from './git-dir-layout.ts';
import type { GitDirSnapshot } from './git-dir-snapshot.ts';
import { describeChange, type Entry, entryNow, restorable, restoreEntry, sameEntry } from './protected-entry.ts';

export const RESTORED = '(restored)';
/** The end of the line of an object changed or removed. */
export const NOT_RESTORED = '(cannot be put back: no copy is kept; run git fsck)';

export interface RestoreOptions {
  /** How a path of the git dir is shown in a line ('' is the git dir itself). */
  show: (relative: string) => string;
  /** A planted pack: moved to the quarantine (a git of the user's may be writing packs meanwhile), or removed. */
  plantedPacks: 'quarantine' | 'remove';
}

interface Walk {
  snapshot: GitDirSnapshot;
  options: RestoreOptions;
  report: ChangeReport;
  /** Paths of the snapshot met on the way. */
  seen: Set<string>;
  /** Folders reported as a whole (removed, replaced, made again): what was in them is named by them. */
  whole: Set<string>;
  /** Objects changed or removed: how many, and the first few. */
  lost: { count: number; first: string[] };
}

export async function restoreTree(snapshot: GitDirSnapshot, options: RestoreOptions): Promise<string[]> {
  const walk: Walk = { snapshot, options, report: new ChangeReport(), seen: new Set(), whole: new Set(), lost: { count: 0, first: [] } };
  await visitKnown(walk, '');
  await makeAgainUnseen(walk);
  const { count, first } = walk.lost;
  const more = count > first.length ? `, and ${count - first.length} more` : '';
  return [...walk.report.lines(), ...(count === 0 ? [] : [`${count} object file(s) removed or changed (${first.join(', ')}${more}) ${NOT_RESTORED}`])];
}

const absolute = (walk: Walk, relative: string) => path.join(walk.snapshot.root, relative);
const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** One entry the snapshot knows: compared, put back if it changed, and a folder walked. */
async function visitKnown(walk: Walk, relative: string): Promise<void> {
  walk.seen.add(relative);
  const before = walk.snapshot.entries.get(relative)!;
  const role = walk.snapshot.roles.get(relative)!;
  const now = await entryNow(absolute(walk, relative), before);
  if (!sameEntry(before, now)) {
    await putBack(walk, relative, role, before, now);
    // A folder that could not be made again: what it held is named by it, met in the last pass.
    if (before.kind === 'dir' && (await entryNow(absolute(walk, relative), before)).kind !== 'dir') return;
  }
  if (before.kind === 'dir') await walkFolder(walk, relative, role);
}

/** Every entry of a folder the snapshot knows, as the system lists them now. */
async function walkFolder(walk: Walk, relative: string, role: Role): Promise<void> {
  const gitDir = walk.snapshot.gitDirs.has(relative);
  try {
    for await (const entry of await fs.opendir(absolute(walk, relative))) {
      const child = path.posix.join(relative, entry.name);
      if (walk.snapshot.entries.has(child)) {
        await visitKnown(walk, child);
        continue;
      }
      const childRole = roleOf(role, entry.name, { atTop: relative === '', gitDir, isDir: entry.isDirectory() });
      if (childRole !== null) await planted(walk, child, childRole, entry);
    }
  } catch (error) {
    await unlistable(walk, relative, role, error);
  }
}

/** An entry the snapshot does not know. */
async function planted(walk: Walk, relative: string, role: Role, entry: Dirent): Promise<void> {
  const shown = walk.options.show(relative);
  const object = role === 'objects' || role === 'object';
  // A loose object added is let be: no ref names it, and a git of the user's may be writing them.
  if (object && !inPacks(relative, role)) return;
  if (object && walk.options.plantedPacks === 'quarantine') {
    const fate = await moveAway(walk, relative).then(
      (moved) => `(moved to ${moved})`,
      async (error) => `(could not be moved away: ${code(error)}) ${await clear(walk, relative)}`,
    );
    walk.report.add({ shown, line: `${shown} was planted ${fate}`, verb: 'created', fate: `(moved to ${QUARANTINE}/)` });
    return;
  }
  // Known from the listing, without another look: a flood is removed at one call per file.
  const now: Entry = entry.isSymbolicLink() ? { kind: 'symlink', target: await fs.readlink(absolute(walk, relative)).catch(() => '?') } : { kind: 'other' };
  const fate = await clear(walk, relative, entry.isDirectory());
  walk.report.add({ shown, line: `${describeChange(shown, { kind: 'absent' }, now)} ${fate}`, verb: 'created', fate });
}

/** Puts one known entry back as it was; an object's change is only named. */
async function putBack(walk: Walk, relative: string, role: Role, before: Entry, now: Entry): Promise<void> {
  if (role === 'object') {
    if (walk.lost.count++ < 3) walk.lost.first.push(walk.options.show(relative));
    return;
  }
  const shown = walk.options.show(relative);
  const verb: Verb = now.kind === 'absent' ? 'removed' : 'changed';
  let fate = RESTORED;
  if (!restorable(before)) fate = '(cannot be put back: too big to keep a copy)';
  else {
    const modeOnly = before.kind === 'dir' && now.kind === 'dir';
    const cleared = modeOnly || now.kind === 'absent' ? RESTORED : await clear(walk, relative);
    fate = await restoreEntry(absolute(walk, relative), before, modeOnly ? now : { kind: 'absent' }).then(
      () => cleared,
      (error) => `(could not be put back: ${code(error)})`,
    );
    if (before.kind === 'dir' && !modeOnly) walk.whole.add(relative);
  }
  if (!insideWhole(walk, relative)) walk.report.add({ shown, line: `${describeChange(shown, before, now)} ${fate}`, verb, fate });
}

/** Removes what is at `relative`; what cannot be removed (a tree too deep to walk, say) is moved to the quarantine. */
async function clear(walk: Walk, relative: string, isDir = true): Promise<string> {
  assertMayWrite(absolute(walk, relative));
  try {
    const file = absolute(walk, relative);
    await (isDir ? fs.rm(file, { recursive: true, force: true }) : fs.unlink(file).catch(() => fs.rm(file, { recursive: true, force: true })));
    return RESTORED;
  } catch (error) {
    return moveAway(walk, relative).then(
      (moved) => `(could not be removed (${code(error)}): moved to ${moved})`,
      () => `(could not be removed (${code(error)}) nor moved away: look at it before you use git there)`,
    );
  }
}

/** A folder the snapshot knows whose listing failed: what is in it cannot be seen, so it is not kept. */
async function unlistable(walk: Walk, relative: string, role: Role, error: unknown): Promise<void> {
  const shown = walk.options.show(relative) || 'the git dir itself';
  const why = `${shown} could not be listed (${code(error)})`;
  const before = walk.snapshot.entries.get(relative)!;
  if (role !== 'meta' || relative === '') {
    walk.report.add({ shown, line: `${why}: what was added in it was not looked for ${NOT_RESTORED}`, verb: 'changed', fate: NOT_RESTORED });
    return;
  }
  const fate = await moveAway(walk, relative).then(
    async (moved) => {
      await restoreEntry(absolute(walk, relative), before, { kind: 'absent' });
      walk.whole.add(relative);
      // What was met in it before the listing failed is gone with it: made again in the last pass.
      for (const met of walk.seen) if (met.startsWith(`${relative}/`)) walk.seen.delete(met);
      return `(moved to ${moved}, and made again as it was) ${RESTORED}`;
    },
    (failed) => `(could not be moved away either: ${code(failed)}; look at it before you use git there)`,
  );
  walk.report.add({ shown, line: `${why} ${fate}`, verb: 'changed', fate });
}

/** Entries of the snapshot not met in the walk, parents first: removed, or in a folder made again. */
async function makeAgainUnseen(walk: Walk): Promise<void> {
  const unseen = [...walk.snapshot.entries.keys()].filter((relative) => !walk.seen.has(relative));
  unseen.sort((a, b) => a.split('/').length - b.split('/').length);
  for (const relative of unseen) {
    const before = walk.snapshot.entries.get(relative)!;
    const now = await entryNow(absolute(walk, relative), before);
    if (!sameEntry(before, now)) await putBack(walk, relative, walk.snapshot.roles.get(relative)!, before, now);
  }
}

const insideWhole = (walk: Walk, relative: string): boolean => {
  for (let parent = path.posix.dirname(relative); parent !== '.'; parent = path.posix.dirname(parent)) {
    if (walk.whole.has(parent)) return true;
  }
  return walk.whole.has('') && relative !== '';
};

let moves = 0;

/** Moves an entry into the quarantine folder (same filesystem: a rename); returns where, as shown. */
async function moveAway(walk: Walk, relative: string): Promise<string> {
  assertMayWrite(absolute(walk, relative));
  // A name of its own that fits whatever the planted one was (at most 255 bytes).
  const target = path.posix.join(QUARANTINE, `${Date.now()}-${++moves}-${Buffer.from(path.posix.basename(relative)).subarray(0, 120).toString('hex')}`);
  const folder = absolute(walk, QUARANTINE);
  await fs.mkdir(folder).catch(() => undefined);
  // Never into a link: a folder planted under this name could point anywhere.
  if (!(await fs.lstat(folder)).isDirectory()) throw new Error(`${QUARANTINE} is not a folder`);
  await fs.rename(absolute(walk, relative), absolute(walk, target));
  return walk.options.show(target);
}
