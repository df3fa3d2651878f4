/**
 * A guarded git dir as it is before a sandboxed command: every entry, listed in full, with how it is
 * compared (git-dir-layout.ts). What is bounded is what is read: a file's bytes are kept up to
 * MAX_FILE_BYTES each and MAX_COPIED_BYTES in all, the rest (and the object store) by identity.
 *
 * The listing itself has one ceiling, MAX_ENTRIES, which only memory asks for; it fails closed: a git
 * dir over it, or with a folder that cannot be listed, is refused before anything runs — a snapshot
 * that missed part of the git dir could not tell a planted file there from one that was always there.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import PQueue from 'p-queue';
import { SopworksError } from '../../ground/errors.ts';
import { type Role, roleOf } from './git-dir-layout.ts';
import { type Entry, entryOf, type ReadBudget } from './protected-entry.ts';

/** Entries kept in memory for one git dir (a few hundred bytes each); `git gc` packs loose objects and refs below it. */
export const MAX_ENTRIES = 200_000;
/** Bigger files (a huge index) are recorded by identity: a change is seen, but not put back. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Copies kept in all; past it, files are recorded by identity. */
const MAX_COPIED_BYTES = 64 * 1024 * 1024;
/** How many entries are read at once: a git dir has thousands, and each is an lstat (and a read). */
const READS_AT_ONCE = 32;

export interface GitDirSnapshot {
  /** The git dir, resolved. */
  root: string;
  /** Every compared path ('' is the git dir itself) as it was. */
  entries: Map<string, Entry>;
  roles: Map<string, Role>;
  /** Folders that are git dirs (they have a HEAD): their `logs/` and `objects/` are their own. */
  gitDirs: Set<string>;
}

export interface SnapshotOptions {
  /** How the git dir is named in an error: "the repository's git dir", ".git". */
  label: string;
  /** The ceiling on entries (MAX_ENTRIES unless a caller bounds it lower). */
  maxEntries?: number;
}

/** A folder gone or replaced while it was listed (a git of the user's running meanwhile): nothing to list. */
const gone = (error: NodeJS.ErrnoException) => error.code === 'ENOENT' || error.code === 'ENOTDIR';

export async function snapshotTree(root: string, options: SnapshotOptions): Promise<GitDirSnapshot> {
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const roles = new Map<string, Role>([['', 'meta']]);
  const gitDirs = new Set<string>();
  const list = async (relative: string, role: Role): Promise<void> => {
    const entries = await fs.readdir(path.join(root, relative), { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (gone(error)) return [];
      throw cannotGuard(options.label, `${relative || 'its top'} cannot be listed (${error.code ?? error.message})`, 'Make the folder readable by your user.');
    });
    if (role === 'meta' && entries.some((entry) => entry.name === 'HEAD')) gitDirs.add(relative);
    for (const entry of entries) {
      const childRole = roleOf(role, entry.name, { atTop: relative === '', gitDir: gitDirs.has(relative), isDir: entry.isDirectory() });
      if (childRole === null) continue;
      const child = path.posix.join(relative, entry.name);
      roles.set(child, childRole);
      if (roles.size > maxEntries) {
        throw cannotGuard(
          options.label,
          `it holds more than ${maxEntries.toLocaleString('en')} entries (the guard keeps them all in memory)`,
          'Run `git gc` there (it packs loose objects and refs), or remove what does not belong in it.',
        );
      }
      if (entry.isDirectory()) await list(child, childRole);
    }
  };
  await list('', 'meta');
  return { root, entries: await readAll(root, roles), roles, gitDirs };
}

function cannotGuard(label: string, why: string, hint: string): SopworksError {
  return new SopworksError('TEST_RUN_FAILED', `Generated code was not run: ${label} cannot be guarded while it runs — ${why}.`, { hint });
}

/** Every path as it is now, read a few dozen at a time (p-queue). */
async function readAll(root: string, roles: ReadonlyMap<string, Role>): Promise<Map<string, Entry>> {
  const queue = new PQueue({ concurrency: READS_AT_ONCE });
  const budget: ReadBudget = { bytes: MAX_COPIED_BYTES };
  const read = (relative: string, role: Role) =>
    entryOf(path.join(root, relative), role === 'object' ? { maxBytes: -1 } : { maxBytes: MAX_FILE_BYTES, budget });
  const reads = [...roles].map(([relative, role]) => queue.add(async () => [relative, await read(relative, role)] as const));
  return new Map(await Promise.all(reads));
}
