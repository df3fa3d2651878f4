/**
 * What a command left in a git work tree: the entries outside the committed tree (HEAD's) that were not
 * there before — `__pycache__/`, `.pytest_cache/`, `coverage/`, a stray output file — so a test run
 * leaves the tree as it found it. A folder outside the committed tree is one entry, so a folder that was
 * there before (installed dependencies, the run's record) is kept whole, whatever the command wrote in it.
 * Read from HEAD's tree and the folders that hold its files, not from git's index: a run's commits do not
 * bring the index along until the run ends (the workspace's fast-import).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { git } from './git-process.ts';

/** The entries of the work tree that HEAD does not hold, relative to it (a folder ends with `/`). */
export async function looseEntries(root: string): Promise<Set<string>> {
  const listed = await git(root, ['ls-tree', '-r', '-z', '--name-only', '--full-tree', 'HEAD'], { okCodes: [128] });
  const tracked = new Set(listed.code === 0 ? listed.stdout.split('\0').filter(Boolean) : []);
  const folders = new Set(['']);
  for (const file of tracked) {
    for (let at = file.indexOf('/'); at !== -1; at = file.indexOf('/', at + 1)) folders.add(file.slice(0, at));
  }
  const entries = new Set<string>();
  for (const folder of folders) {
    const names = await fs.readdir(path.join(root, folder), { withFileTypes: true }).catch(() => []);
    for (const entry of names) {
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (relative === '.git' || tracked.has(relative) || folders.has(relative)) continue;
      entries.add(entry.isDirectory() ? `${relative}/` : relative);
    }
  }
  return entries;
}

/** Removes the loose entries that were not there `before` (a link is removed, never followed); returns them, sorted. */
export async function removeNewEntries(root: string, before: ReadonlySet<string>): Promise<string[]> {
  const added = [...(await looseEntries(root))].filter((entry) => !before.has(entry)).sort();
  for (const entry of added) await fs.rm(path.join(root, entry), { recursive: true, force: true });
  return added;
}
