/**
 * Every file sopworks writes into a project goes through here: generated code may have left symbolic
 * links in the work tree (to `.git/hooks`, to a file of the host), and a write that follows one lands
 * where the link points. So no component of the path may be a link — checked with lstat, folder by
 * folder from the project's root — and the file is written to a fresh name opened with O_EXCL|O_NOFOLLOW
 * and renamed over the target (a rename replaces a link, it never writes through it). The folders are
 * checked again just before the rename, which narrows the window a process swapping a folder for a
 * link would need; no process of a sandboxed run is alive by then (the sandbox kills them all).
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkRelativePath, resolveInside } from './safe-path.ts';

export type WriteRefusal = { ok: false; reason: string };

/** Why `relative` may not be written under `root`, or null: lstat on every component, nothing followed. */
export async function noFollowRefusal(root: string, relative: string): Promise<string | null> {
  const checked = checkRelativePath(relative);
  if (!checked.ok) return checked.reason;
  const parts = checked.path.split('/');
  let at = root;
  for (const [index, part] of parts.entries()) {
    at = path.join(at, part);
    const stat = await fs.lstat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (stat === null) return null; // the rest is made fresh
    const shown = parts.slice(0, index + 1).join('/');
    if (stat.isSymbolicLink()) return `${shown} is a symbolic link (to ${await fs.readlink(at).catch(() => '?')}); sopworks never writes through one`;
    if (index < parts.length - 1 && !stat.isDirectory()) return `${shown} is not a folder`;
    if (index === parts.length - 1 && !stat.isFile()) return `${shown} is not a regular file`;
  }
  return null;
}

/**
 * Writes `content` to `root/relative` without following any link. Returns null when written, or the
 * refusal (a link or a non-folder on the way): the caller reports it like a policy refusal.
 */
export async function writeNoFollow(root: string, relative: string, content: string | Uint8Array, mode = 0o644): Promise<string | null> {
  const realRoot = await fs.realpath(root);
  const refusal = await noFollowRefusal(realRoot, relative);
  if (refusal) return refusal;
  const parts = checkRelativePath(relative);
  if (!parts.ok) return parts.reason;
  const target = path.join(realRoot, ...parts.path.split('/'));
  const folder = path.dirname(target);
  // Folders one at a time, each made (never followed) where missing.
  let at = realRoot;
  for (const part of path.relative(realRoot, folder).split(path.sep).filter(Boolean)) {
    at = path.join(at, part);
    await fs.mkdir(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
  const temporary = path.join(folder, `.sopworks-write-${randomBytes(6).toString('hex')}`);
  await writeNewFile(temporary, content, mode);
  const again = await noFollowRefusal(realRoot, relative);
  if (again) {
    await fs.rm(temporary, { force: true });
    return again;
  }
  await fs.rename(temporary, target);
  return null;
}

/** Creates `file`, which must not exist yet and is never a link followed (O_EXCL|O_NOFOLLOW), with `content` and `mode`. */
export async function writeNewFile(file: string, content: string | Uint8Array, mode: number): Promise<void> {
  const handle = await fs.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    await handle.writeFile(content);
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}

/** Whether `root/relative` is a file with its owner's execute bit set: a file rewritten without a mode of its own keeps it. */
export async function isExecutableFile(root: string, relative: string): Promise<boolean> {
  const stat = await resolveInside(root, relative)
    .then((at) => fs.lstat(at))
    .catch(() => null);
  return stat !== null && stat.isFile() && (stat.mode & 0o100) !== 0;
}
