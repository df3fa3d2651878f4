/**
 * One path that generated code must not change, as it was: what the integrity checks (integrity.ts for
 * the project's own `.git/` and `.sopworks/`, git-dir-guard.ts for a git dir outside the project)
 * record before a sandboxed command, compare after it and put back. Nothing here follows a link:
 * entries are read with lstat and opened with O_NOFOLLOW, links are recorded as links, files are
 * written fresh and renamed into place.
 */
import { constants, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { assertMayWrite, writeNewFile } from '../../ground/files/index.ts';

export type Entry =
  | { kind: 'absent' }
  /** A folder and its permissions: a folder opened to everyone, or closed to its owner's listing, is a change. */
  | { kind: 'dir'; mode: number }
  | { kind: 'file'; bytes: Buffer; mode: number }
  | { kind: 'symlink'; target: string }
  | { kind: 'other' }
  /** An append-only log: what was there before must still be its first bytes. */
  | { kind: 'prefix'; bytes: Buffer; mode: number }
  /**
   * A file known only by its identity — too big to keep a copy of, one of the object store's, or one
   * that could not be read: a change is seen (the inode's change time cannot be set back) but cannot
   * be put back.
   */
  | { kind: 'stat'; ino: number; size: number; mtimeMs: number; ctimeMs: number; mode: number };

/** Bytes that may still be copied: a snapshot keeps copies up to a total, and records the rest by identity. */
export interface ReadBudget {
  bytes: number;
}

export interface EntryOptions {
  /** An append-only log (a `prefix` entry). */
  appendOnly?: boolean;
  /** Files bigger than this, or every file when negative, are recorded by their identity only (a `stat` entry). */
  maxBytes?: number;
  /** Taken from as files are copied; a file bigger than what is left is recorded by its identity. */
  budget?: ReadBudget;
}

const identity = (stat: Stats): Entry => ({
  kind: 'stat',
  ino: stat.ino,
  size: stat.size,
  mtimeMs: stat.mtimeMs,
  ctimeMs: stat.ctimeMs,
  mode: stat.mode & 0o7777,
});

export async function entryOf(file: string, options: EntryOptions = {}): Promise<Entry> {
  const stat = await fs.lstat(file).catch(() => null);
  if (!stat) return { kind: 'absent' };
  if (stat.isSymbolicLink()) return { kind: 'symlink', target: await fs.readlink(file).catch(() => '?') };
  const mode = stat.mode & 0o7777;
  if (stat.isDirectory()) return { kind: 'dir', mode };
  if (!stat.isFile()) return { kind: 'other' };
  const { budget } = options;
  if ((options.maxBytes !== undefined && stat.size > options.maxBytes) || (budget && stat.size > budget.bytes)) return identity(stat);
  if (budget) budget.bytes -= stat.size;
  const bytes = await readRegular(file, stat.size);
  // Not readable (closed to its owner, or swapped meanwhile): known by its identity, so a change still shows.
  if (!bytes) return identity(stat);
  return options.appendOnly ? { kind: 'prefix', bytes, mode } : { kind: 'file', bytes, mode };
}

/**
 * A path as it is now, compared with how it was: a file's bytes are read only when it still has the
 * size and mode it had (so what is read is bounded by what the snapshot kept); anything else is
 * known by its kind and identity. Planted files are never read.
 */
export async function entryNow(file: string, before: Entry): Promise<Entry> {
  const stat = await fs.lstat(file).catch(() => null);
  if (!stat) return { kind: 'absent' };
  if (before.kind === 'stat' || !stat.isFile()) return entryOf(file, { maxBytes: -1 });
  if ((before.kind === 'file' || before.kind === 'prefix') && before.bytes.length === stat.size && before.mode === (stat.mode & 0o7777)) {
    return entryOf(file, { maxBytes: stat.size, appendOnly: before.kind === 'prefix' });
  }
  return identity(stat);
}

/** A regular file's bytes, opened without following a link or blocking on a pipe; null if it is not one any more. */
async function readRegular(file: string, size: number): Promise<Buffer | null> {
  const handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (!handle) return null;
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size !== size) return null;
    return await handle.readFile();
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

export function sameEntry(before: Entry, after: Entry): boolean {
  if (before.kind === 'prefix')
    return after.kind === 'prefix' && after.bytes.length >= before.bytes.length && after.bytes.subarray(0, before.bytes.length).equals(before.bytes);
  if (before.kind !== after.kind) return false;
  if (before.kind === 'dir' && after.kind === 'dir') return before.mode === after.mode;
  if (before.kind === 'file' && after.kind === 'file') return before.bytes.equals(after.bytes) && before.mode === after.mode;
  if (before.kind === 'symlink' && after.kind === 'symlink') return before.target === after.target;
  if (before.kind === 'stat' && after.kind === 'stat')
    return (
      before.ino === after.ino &&
      before.size === after.size &&
      before.mtimeMs === after.mtimeMs &&
      before.ctimeMs === after.ctimeMs &&
      before.mode === after.mode
    );
  return true;
}

export function describeChange(relative: string, before: Entry, after: Entry): string {
  if (before.kind === 'absent') return `${relative} was created${after.kind === 'symlink' ? ` (a link to ${after.target})` : ''}`;
  if (after.kind === 'absent') return `${relative} was removed`;
  if (after.kind === 'symlink' && before.kind !== 'symlink') return `${relative} was replaced by a link to ${after.target}`;
  if (before.kind === 'prefix') return `${relative} was rewritten (it may only grow)`;
  if (before.kind === 'dir' && after.kind === 'dir') return `${relative} changed mode (${octal(before.mode)} to ${octal(after.mode)})`;
  if (before.kind === 'file' && after.kind === 'file' && before.bytes.equals(after.bytes)) return `${relative} changed mode`;
  return `${relative} was changed`;
}

const octal = (mode: number) => `0${mode.toString(8)}`;

/** Whether an entry as it was can be made again (a `stat` entry kept no bytes). */
export const restorable = (before: Entry): boolean => before.kind !== 'stat' && before.kind !== 'other';

/**
 * Puts one entry back as it was (an append-only log is the caller's: it keeps sopworks' own lines);
 * children of a restored folder follow from their own entries.
 */
export async function restoreEntry(file: string, before: Entry, after: Entry): Promise<void> {
  if (!restorable(before) && before.kind !== 'absent') return;
  // A queued run that lost its lease puts nothing back: the folder is another worker's (write-fence.ts).
  assertMayWrite(file);
  if (before.kind === 'dir' && after.kind === 'dir') {
    await fs.chmod(file, before.mode);
    return;
  }
  if (after.kind !== 'absent') await fs.rm(file, { recursive: true, force: true });
  if (before.kind === 'dir') {
    await fs.mkdir(file, { recursive: true });
    await fs.chmod(file, before.mode);
  } else if (before.kind === 'file' || before.kind === 'prefix') await writeFresh(file, before.bytes, before.mode);
  else if (before.kind === 'symlink') await fs.symlink(before.target, file);
}

/** Written to a fresh file (never through a link) and renamed into place. */
export async function writeFresh(file: string, bytes: Buffer, mode: number): Promise<void> {
  const temporary = `${file}.sopworks-restore`;
  await fs.rm(temporary, { force: true });
  await writeNewFile(temporary, bytes, mode);
  await fs.rename(temporary, file);
}
