/**
 * What generated code must never change, checked rather than assumed: the repository's metadata —
 * everything in `.git/` but loose objects and the reflogs, compared as a guarded git dir is
 * (git-dir-layout.ts: config, hooks, info, HEAD, refs, packed-refs, the index, `objects/info` where
 * alternates would live, packs by identity) — and the run's record in `.sopworks/` (the board and the
 * exchange log may only grow, `run.json` and `lock` may not change, and nothing there may be a link).
 *
 * `snapshotProtected` is taken before a sandboxed command, `restoreProtected` after it: any difference
 * is a violation, undone on the spot (a file put back byte for byte, a planted file, pack or link
 * removed) and named, so the run can stop on it. Every mode makes these paths unwritable (read-only
 * binds under bubblewrap, a scratch copy of the work tree otherwise); this check is what proves it
 * held. Every folder is listed in full; a folder that cannot be is refused before the command and named
 * as a violation after it. Nothing here follows a link: entries are read with lstat, links are recorded
 * as links (protected-entry.ts). A git dir outside the project — the user's repository, which a change
 * run's work tree points into — has a check of its own (git-dir-guard.ts).
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { assertMayWrite } from '../../ground/files/index.ts';
import { ChangeReport } from './change-report.ts';
import { NOT_RESTORED, RESTORED, restoreTree } from './git-dir-restore.ts';
import { type GitDirSnapshot, snapshotTree } from './git-dir-snapshot.ts';
import { describeChange, type Entry, entryOf, restorable, restoreEntry, sameEntry } from './protected-entry.ts';

export { NOT_RESTORED } from './git-dir-restore.ts';

export interface ProtectedSnapshot {
  root: string;
  /** `.git/` as it was, when it is a folder (a linked work tree's `.git` file is a path of the record). */
  git: GitDirSnapshot | null;
  /** The run's record, and `.git` when it is not a folder. */
  record: Map<string, Entry>;
}

const STATE = '.sopworks';
const APPEND_ONLY = ['.sopworks/board.jsonl', '.sopworks/exchanges.jsonl'];
const FIXED = ['.sopworks/run.json', '.sopworks/lock'];

/** One path of the record as it is now: a log by its prefix, anything else whole. */
const read = (root: string, relative: string): Promise<Entry> => entryOf(path.join(root, relative), { appendOnly: APPEND_ONLY.includes(relative) });

export async function snapshotProtected(projectDir: string): Promise<ProtectedSnapshot> {
  const root = await fs.realpath(projectDir);
  const gitIsFolder = (await fs.lstat(path.join(root, '.git')).catch(() => null))?.isDirectory() ?? false;
  const git = gitIsFolder ? await snapshotTree(path.join(root, '.git'), { label: '.git' }) : null;
  const paths = [...(gitIsFolder ? [] : ['.git']), STATE, ...APPEND_ONLY, ...FIXED];
  // Links already in .sopworks/ (there should be none) are recorded as they are.
  const listed = await eachLinkIn(root, (relative) => paths.push(relative));
  if (listed !== null) {
    throw new SopworksError('TEST_RUN_FAILED', `Generated code was not run: ${STATE} cannot be guarded while it runs — it cannot be listed (${listed}).`, {
      hint: `Make ${STATE} readable by your user.`,
    });
  }
  const record = new Map<string, Entry>();
  for (const relative of new Set(paths)) record.set(relative, await read(root, relative));
  return { root, git, record };
}

/** Calls `visit` with every link at the top of .sopworks/, as the system lists them; returns why the listing failed, or null. */
async function eachLinkIn(root: string, visit: (relative: string) => unknown): Promise<string | null> {
  const folder = path.join(root, STATE);
  if (!(await fs.lstat(folder).catch(() => null))?.isDirectory()) return null;
  try {
    // Only links are looked for here: sopworks itself writes other files of the record during a run.
    for await (const entry of await fs.opendir(folder)) if (entry.isSymbolicLink()) await visit(`${STATE}/${entry.name}`);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}

/**
 * Whether a line appended to an append-only file of the record (relative path) was written by sopworks
 * itself — a run goes on posting while the tests run. Absent: nobody else writes, every line is foreign.
 */
export type AcceptLine = (relative: string, line: string) => boolean;

/**
 * Compares the protected paths with the snapshot, puts back whatever changed, and returns what changed,
 * one line each, each saying what became of it (empty: nothing did).
 */
export async function restoreProtected(snapshot: ProtectedSnapshot, acceptLine: AcceptLine = () => false): Promise<string[]> {
  const { root, git, record } = snapshot;
  const changed: string[] = [];
  if (git) changed.push(...(await restoreTree(git, { show: (relative) => (relative ? `.git/${relative}` : '.git'), plantedPacks: 'remove' })));
  const check: RecordCheck = { root, record, acceptLine, report: new ChangeReport(), whole: new Set() };
  const { report } = check;
  const byDepth = [...record.keys()].sort((a, b) => a.split('/').length - b.split('/').length);
  // The top first (.sopworks/ itself made again if it has to be), then the links planted in it, then the rest.
  for (const relative of byDepth.filter((relative) => !relative.includes('/'))) await restorePath(check, relative);
  const listed = await eachLinkIn(root, async (relative) => {
    if (record.has(relative)) return;
    const now = await entryOf(path.join(root, relative));
    assertMayWrite(root);
    const fate = await fs.rm(path.join(root, relative), { force: true }).then(
      () => RESTORED,
      (error: NodeJS.ErrnoException) => `(could not be removed: ${error.code})`,
    );
    report.add({ shown: relative, line: `${describeChange(relative, { kind: 'absent' }, now)} ${fate}`, verb: 'created', fate });
  });
  if (listed !== null) changed.push(`${STATE} could not be listed (${listed}): a link planted in it was not looked for ${NOT_RESTORED}`);
  for (const relative of byDepth.filter((relative) => relative.includes('/'))) await restorePath(check, relative);
  // A second pass catches children of folders that were removed and had to be made again.
  for (const relative of byDepth) {
    const before = record.get(relative)!;
    const current = () => read(root, relative);
    if (before.kind !== 'absent' && !sameEntry(before, await current())) {
      await restore(root, relative, before, await current(), acceptLine).catch(() => undefined);
    }
  }
  return [...changed, ...report.lines()];
}

interface RecordCheck {
  root: string;
  record: Map<string, Entry>;
  acceptLine: AcceptLine;
  report: ChangeReport;
  /** Folders reported as a whole (removed, replaced): what was in them is named by them. */
  whole: Set<string>;
}

/** One path of the record compared, put back and reported. */
async function restorePath(check: RecordCheck, relative: string): Promise<void> {
  const { root, acceptLine } = check;
  const before = check.record.get(relative)!;
  const after = await read(root, relative);
  let foreign = false;
  if (before.kind === 'prefix' && after.kind === 'prefix' && sameEntry(before, after)) {
    const isForeign = (entry: Entry) => entry.kind === 'prefix' && ownLines(relative, appended(before, entry), acceptLine) !== appended(before, entry);
    // A line sopworks is posting right now is on disk a moment before it is in the board's list.
    if (isForeign(after)) {
      await settle();
      foreign = isForeign(await entryOf(path.join(root, relative), { appendOnly: true }));
    }
  }
  if (sameEntry(before, after) && !foreign) return;
  const fate = await restore(root, relative, before, after, acceptLine).then(
    () => (restorable(before) || before.kind === 'absent' ? RESTORED : NOT_RESTORED),
    (error: NodeJS.ErrnoException) => `(could not be put back: ${error.code ?? error.message})`,
  );
  const what = foreign ? `${relative} got lines sopworks did not write` : describeChange(relative, before, after);
  if (before.kind === 'dir' || after.kind === 'dir') check.whole.add(relative);
  // A file inside a planted (or removed) folder is named by its folder.
  if (check.whole.has(path.posix.dirname(relative))) return;
  const verb = after.kind === 'absent' ? 'removed' : before.kind === 'absent' ? 'created' : 'changed';
  check.report.add({ shown: relative, line: `${what} ${fate}`, verb, fate });
}

/** Puts one entry back as it was; children of a restored folder follow from their own entries. */
async function restore(root: string, relative: string, before: Entry, after: Entry, acceptLine: AcceptLine): Promise<void> {
  const file = path.join(root, relative);
  if (before.kind === 'prefix' && after.kind === 'prefix') {
    // What was there before is put back, and of what was appended, the lines sopworks wrote. In place:
    // sopworks' own log keeps this file open for appending. Read again: the run may have posted since.
    const current = await entryOf(file, { appendOnly: true });
    const grown = current.kind === 'prefix' && current.bytes.length >= after.bytes.length ? current : after;
    assertMayWrite(file);
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

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

const appended = (before: Entry & { kind: 'prefix' }, after: Entry & { kind: 'prefix' }) => after.bytes.subarray(before.bytes.length).toString('utf8');

/** The appended lines sopworks wrote, each with its newline (a torn last line of its own stays). */
function ownLines(relative: string, text: string, acceptLine: AcceptLine): string {
  const lines = text.split('\n');
  const last = lines.pop()!;
  const kept = lines.filter((line) => acceptLine(relative, line)).map((line) => `${line}\n`);
  return kept.join('') + (last !== '' && acceptLine(relative, last) ? last : '');
}
