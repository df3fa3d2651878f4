/**
 * One path that generated code must not change, as it was: what the integrity checks (integrity.ts for
 * the project's own `.git/` and `.sopworks/`, git-dir-guard.ts for a git dir outside the project)
 * record before a sandboxed command, compare after it and put back. Nothing here follows a link:
 * entries are read with lstat, links are recorded as links, files are written fresh and renamed into
 * place.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeNewFile } from '../../ground/files/index.ts';

export type Entry =
  | { kind: 'absent' }
  | { kind: 'dir' }
  | { kind: 'file'; bytes: Buffer; mode: number }
  | { kind: 'symlink'; target: string }
  | { kind: 'other' }
  /** An append-only log: what was there before must still be its first bytes. */
  | { kind: 'prefix'; bytes: Buffer; mode: number }
  /**
   * A file known only by its identity — too big to keep a copy of, or one of the object store's:
   * a change is seen (the inode's change time cannot be set back) but cannot be put back.
   */
  | { kind: 'stat'; ino: number; size: number; mtimeMs: number; ctimeMs: number; mode: number };

export interface EntryOptions {
  /** An append-only log (a `prefix` entry). */
  appendOnly?: boolean;
  /** Files bigger than this, or every file when 0, are recorded by their identity only (a `stat` entry). */
  maxBytes?: number;
}

export async function entryOf(file: string, options: EntryOptions = {}): Promise<Entry> {
  const stat = await fs.lstat(file).catch(() => null);
  if (!stat) return { kind: 'absent' };
  if (stat.isSymbolicLink()) return { kind: 'symlink', target: await fs.readlink(file).catch(() => '?') };
  if (stat.isDirectory()) return { kind: 'dir' };
  if (!stat.isFile()) return { kind: 'other' };
  const mode = stat.mode & 0o7777;
  if (options.maxBytes !== undefined && stat.size > options.maxBytes) {
    return { kind: 'stat', ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, mode };
  }
  const bytes = await fs.readFile(file).catch(() => null);
  if (!bytes) return { kind: 'absent' };
  return options.appendOnly ? { kind: 'prefix', bytes, mode } : { kind: 'file', bytes, mode };
}

export function sameEntry(before: Entry, after: Entry): boolean {
  if (before.kind === 'prefix')
    return after.kind === 'prefix' && after.bytes.length >= before.bytes.length && after.bytes.subarray(0, before.bytes.length).equals(before.bytes);
  if (before.kind !== after.kind) return false;
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
  if (before.kind === 'file' && after.kind === 'file' && before.bytes.equals(after.bytes)) return `${relative} changed mode`;
  return `${relative} was changed`;
}

/** Whether an entry as it was can be made again (a `stat` entry kept no bytes). */
export const restorable = (before: Entry): boolean => before.kind !== 'stat' && before.kind !== 'other';

/**
 * Puts one entry back as it was (an append-only log is the caller's: it keeps sopworks' own lines);
 * children of a restored folder follow from their own entries.
 */
export async function restoreEntry(file: string, before: Entry, after: Entry): Promise<void> {
  if (!restorable(before) && before.kind !== 'absent') return;
  if (after.kind !== 'absent' && !(before.kind === 'dir' && after.kind === 'dir')) await fs.rm(file, { recursive: true, force: true });
  if (before.kind === 'dir') await fs.mkdir(file, { recursive: true });
  else if (before.kind === 'file' || before.kind === 'prefix') await writeFresh(file, before.bytes, before.mode);
  else if (before.kind === 'symlink') await fs.symlink(before.target, file);
}

/** Written to a fresh file (never through a link) and renamed into place. */
export async function writeFresh(file: string, bytes: Buffer, mode: number): Promise<void> {
  const temporary = `${file}.sopworks-restore`;
  await fs.rm(temporary, { force: true });
  await writeNewFile(temporary, bytes, mode);
  await fs.rename(temporary, file);
}

/** Every entry under `relative` (depth first), up to `limit` entries in `into`; links are listed, not followed. */
export async function listTree(root: string, relative: string, into: string[], limit: number, skip: (name: string) => boolean = () => false): Promise<void> {
  const entries = await fs.readdir(path.join(root, relative), { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (into.length >= limit) return;
    if (skip(entry.name)) continue;
    const child = path.posix.join(relative, entry.name);
    into.push(child);
    if (entry.isDirectory()) await listTree(root, child, into, limit, skip);
  }
}
