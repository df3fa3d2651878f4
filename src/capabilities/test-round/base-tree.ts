/**
 * The tree the base's tests ran in, made again once the change is written: a copy of the change's work
 * tree — with what the install put there (node_modules, .venv), which is why the base's tests could run
 * — whose files the change touched are put back as the base has them (a file it added is left out, one it
 * changed or removed is the base's again, its mode too). The work tree itself is never touched: it is
 * the user's branch. The copy lives in the run's folder at one place, removed before it is made and
 * after use, so a step re-run after a kill -9 makes the same copy and leaves nothing behind.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { STATE_DIR } from '../../engine/run/index.ts';
import { git, readBlobBytes } from '../../host/git/index.ts';
import { removeTree } from '../../host/sandbox/index.ts';

/** Where the copy is made, inside the run's folder (never committed, and never copied into itself). */
export const BASE_TREE_DIR = path.join(STATE_DIR, 'base-tree');

/** A file the change touched, as `git diff --raw` says it: the base's mode and blob (null when the change added it). */
interface Touched {
  path: string;
  base: { mode: string; blob: string } | null;
}

/**
 * Removes a copy an earlier use left (a kill -9 during the base's re-run): before anything runs in the
 * work tree again, or a runner that looks everywhere (`node --test`) would run the copy's tests too.
 */
export async function removeBaseTree(root: string): Promise<void> {
  await removeTree(path.join(root, BASE_TREE_DIR));
}

/** Runs `work` in a copy of `root` holding the base `base`'s files; the copy is removed afterwards, whatever happens. */
export async function withBaseTree<T>(root: string, base: string, work: (dir: string) => Promise<T>): Promise<T> {
  const holder = path.join(root, BASE_TREE_DIR);
  await removeTree(holder);
  try {
    const dir = path.join(holder, 'project');
    await fs.mkdir(dir, { recursive: true });
    // Entry by entry: the copy is inside the run's folder, which is inside the work tree.
    for (const entry of await fs.readdir(root)) {
      if (entry === '.git' || entry === STATE_DIR) continue;
      await fs.cp(path.join(root, entry), path.join(dir, entry), { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    }
    const touched = await touchedSince(root, base);
    const blobs = await readBlobBytes(
      root,
      touched.flatMap((t) => (t.base ? [t.base.blob] : [])),
    );
    for (const file of touched) {
      const target = path.join(dir, file.path);
      await fs.rm(target, { force: true, recursive: true });
      const content = file.base ? blobs.get(file.base.blob) : undefined;
      if (!file.base || content === undefined) continue;
      await fs.mkdir(path.dirname(target), { recursive: true });
      if (file.base.mode === '120000') await fs.symlink(content.toString('utf8'), target);
      else await fs.writeFile(target, content, { mode: file.base.mode === '100755' ? 0o755 : 0o644 });
    }
    return await work(dir);
  } finally {
    await removeTree(holder).catch(() => undefined);
  }
}

/** The files committed on the branch since `base` (HEAD against it), each with what the base had. */
async function touchedSince(root: string, base: string): Promise<Touched[]> {
  const { stdout } = await git(root, ['diff', '--raw', '-z', '--no-renames', '--no-abbrev', base, 'HEAD']);
  const fields = stdout.split('\0');
  const touched: Touched[] = [];
  // Each entry: ":<old mode> <new mode> <old blob> <new blob> <status>" then its path.
  for (let at = 0; at + 1 < fields.length; at += 2) {
    const [oldMode = '', , oldBlob = ''] = fields[at]!.slice(1).split(' ');
    const file = fields[at + 1]!;
    if (!file) continue;
    touched.push({ path: file, base: /^0+$/.test(oldMode) ? null : { mode: oldMode, blob: oldBlob } });
  }
  return touched;
}
