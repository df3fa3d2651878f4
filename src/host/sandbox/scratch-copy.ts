/**
 * Where nothing else can keep generated code away from `.git/` and `.sopworks/` (Node's permission
 * model grants writes by folder, with no exceptions; an unsandboxed run has the user's rights), the
 * command runs in a scratch copy of the work tree that holds neither. Afterwards the files it made or
 * changed in the copy are copied back into the project — regular files only, each written without
 * following a link (workspace/no-follow-write.ts); links are not copied back, and files it deleted stay.
 *
 * Every folder is listed in full, as the system lists it (a stream); one that cannot be listed is
 * named — by the copy-back (what is in it was not copied back) and by the measure of the work tree
 * (which then counts as over the disk limit) — never passed over in silence.
 */
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeNoFollow } from '../../ground/files/index.ts';
import { removeTree } from './remove-tree.ts';
import { shownPath } from './shown-path.ts';

const LEFT_OUT = new Set(['.git', '.sopworks']);

export interface Scratch {
  /** The folder the command runs in. */
  dir: string;
  /** size:mtime of every regular file as copied, to copy back only what changed. */
  copied: Map<string, string>;
  remove(): Promise<void>;
}

const stamp = (stat: { size: number; mtimeMs: number; mode: number }) => `${stat.size}:${stat.mtimeMs}:${stat.mode}`;

/** A folder that could not be listed, as a line: "build/deep (ENAMETOOLONG)". */
const unlistedLine = (relative: string, error: unknown) =>
  `${shownPath(relative) || '.'} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;

/** Visits every file of the work tree (not `.git/`, `.sopworks/`); returns the folders that could not be listed. */
async function walkFiles(root: string, visit: (relative: string, stat: Stats) => Promise<void>): Promise<string[]> {
  const unlisted: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    try {
      for await (const entry of await fs.opendir(path.join(root, relative))) {
        if (relative === '' && LEFT_OUT.has(entry.name)) continue;
        const child = relative ? `${relative}/${entry.name}` : entry.name;
        const stat = await fs.lstat(path.join(root, child)).catch(() => null);
        if (!stat) continue;
        if (stat.isDirectory()) await walk(child);
        else await visit(child, stat);
      }
    } catch (error) {
      unlisted.push(unlistedLine(relative, error));
    }
  };
  await walk('');
  return unlisted;
}

export async function makeScratch(projectDir: string): Promise<Scratch> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-work-'));
  const dir = path.join(base, 'project');
  await fs.cp(projectDir, dir, {
    recursive: true,
    verbatimSymlinks: true,
    preserveTimestamps: true,
    filter: (source) => !LEFT_OUT.has(path.relative(projectDir, source).split(path.sep)[0]!) || path.relative(projectDir, source) === '',
  });
  await fs.mkdir(dir, { recursive: true });
  const copied = new Map<string, string>();
  await walkFiles(dir, async (relative, stat) => {
    if (stat.isFile()) copied.set(relative, stamp(stat));
  });
  return { dir, copied, remove: () => removeTree(base) };
}

/**
 * Copies what the command made or changed back into the project; returns the files it refused (a link
 * on the way in the project) and the folders it could not list, one line each.
 */
export async function copyBack(scratch: Scratch, projectDir: string): Promise<string[]> {
  const refused: string[] = [];
  const unlisted = await walkFiles(scratch.dir, async (relative, stat) => {
    if (!stat.isFile() || scratch.copied.get(relative) === stamp(stat)) return;
    const reason = await writeNoFollow(projectDir, relative, await fs.readFile(path.join(scratch.dir, relative)), stat.mode & 0o777).catch(
      (error: Error) => error.message,
    );
    if (reason) refused.push(`${relative}: ${reason}`);
  });
  return [...refused, ...unlisted.map((folder) => `${folder}: the folder could not be listed; what the command wrote in it was not copied back`)];
}

export interface TreeSize {
  files: number;
  bytes: number;
  /** Folders that could not be listed ("build/deep (ENAMETOOLONG)"): what is in them was not counted. */
  unlisted: string[];
}

/** Files and bytes of a work tree (without .git/ and .sopworks/), counting up to `maxFiles + 1` files. */
export async function measureTree(root: string, maxFiles: number): Promise<TreeSize> {
  const size: TreeSize = { files: 0, bytes: 0, unlisted: [] };
  const walk = async (relative: string): Promise<void> => {
    try {
      for await (const entry of await fs.opendir(path.join(root, relative))) {
        // Past the bound the answer is known (over): the rest need not be counted.
        if (size.files > maxFiles) return;
        if (relative === '' && LEFT_OUT.has(entry.name)) continue;
        const child = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory()) await walk(child);
        else {
          size.files++;
          if (entry.isFile()) size.bytes += (await fs.lstat(path.join(root, child)).catch(() => ({ size: 0 }))).size;
        }
      }
    } catch (error) {
      size.unlisted.push(unlistedLine(relative, error));
    }
  };
  await walk('');
  return size;
}
