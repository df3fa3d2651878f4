/**
 * How each path of a guarded git dir is compared — pure, and the same for the snapshot taken before a
 * sandboxed command and the walk after it (git-dir-snapshot.ts, git-dir-restore.ts):
 *
 * - meta: byte for byte (a folder: its permissions, and every entry in it) — config, hooks, info,
 *   HEAD, refs, packed-refs, the index, worktrees/<name>, a submodule's git dir…;
 * - store: an object store (`objects/` of a git dir): its `info/` is meta, its `pack/` and loose
 *   folders are object folders, anything else there is a git's temporary folder and not compared;
 * - objects: a folder of objects (`pack/` or a loose folder like `3f/`);
 * - object: a file of one, by identity (too many and too big to copy).
 *
 * Not compared at all: `*.lock` files (a git running meanwhile), a git dir's reflogs (`logs/`), and the
 * quarantine folder at the top.
 */
import path from 'node:path';

export type Role = 'meta' | 'store' | 'objects' | 'object';

/** Where planted packs (and what could not be removed) are moved: a folder of the git dir that git never reads. */
export const QUARANTINE = 'sopworks-quarantine';

const LOOSE_FOLDER = /^[0-9a-f]{2}$/;

/**
 * The role of the entry `name` in a folder of role `parent`; null: not compared. `atTop`: that folder is
 * the guarded git dir itself; `gitDir`: that folder is a git dir (it has a HEAD).
 */
export function roleOf(parent: Role, name: string, where: { atTop: boolean; gitDir: boolean; isDir: boolean }): Role | null {
  if (name.endsWith('.lock')) return null;
  if (parent === 'meta') {
    if (where.atTop && name === QUARANTINE) return null;
    if (where.gitDir && name === 'logs') return null;
    return where.gitDir && name === 'objects' && where.isDir ? 'store' : 'meta';
  }
  if (parent === 'store') {
    if (name === 'info') return 'meta';
    return where.isDir && (name === 'pack' || LOOSE_FOLDER.test(name)) ? 'objects' : null;
  }
  return 'object';
}

/** Whether a path of role objects/object lies in a `pack/` folder: git reads packs before loose objects. */
export const inPacks = (relative: string, role: Role): boolean =>
  role === 'objects' ? path.posix.basename(relative) === 'pack' : role === 'object' && path.posix.basename(path.posix.dirname(relative)) === 'pack';

/** The names git runs as hooks (githooks(5)): named in a report even among thousands of planted files. */
export const HOOK_NAMES: ReadonlySet<string> = new Set([
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'post-index-change',
]);
