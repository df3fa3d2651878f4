/**
 * Where nothing else can keep generated code away from `.git/` and `.sopworks/` (Node's permission
 * model grants writes by folder, with no exceptions; an unsandboxed run has the user's rights), the
 * command runs in a scratch copy of the work tree that holds neither. Afterwards the files it made or
 * changed in the copy are copied back into the project — regular files only, each written without
 * following a link (workspace/no-follow-write.ts); links are not copied back, and files it deleted stay.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeNoFollow } from '../../ground/files/index.ts';

const LEFT_OUT = new Set(['.git', '.sopworks']);

export interface Scratch {
  /** The folder the command runs in. */
  dir: string;
  /** size:mtime of every regular file as copied, to copy back only what changed. */
  copied: Map<string, string>;
  remove(): Promise<void>;
}

const stamp = (stat: { size: number; mtimeMs: number; mode: number }) => `${stat.size}:${stat.mtimeMs}:${stat.mode}`;

async function walkFiles(root: string, visit: (relative: string, stat: import('node:fs').Stats) => Promise<void>, relative = ''): Promise<void> {
  for (const entry of await fs.readdir(path.join(root, relative), { withFileTypes: true }).catch(() => [])) {
    if (relative === '' && LEFT_OUT.has(entry.name)) continue;
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    const stat = await fs.lstat(path.join(root, child)).catch(() => null);
    if (!stat) continue;
    if (stat.isDirectory()) await walkFiles(root, visit, child);
    else await visit(child, stat);
  }
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
  return { dir, copied, remove: () => fs.rm(base, { recursive: true, force: true }) };
}

/**
 * Copies what the command made or changed back into the project; returns the files it refused (a link
 * on the way in the project), one line each.
 */
export async function copyBack(scratch: Scratch, projectDir: string): Promise<string[]> {
  const refused: string[] = [];
  await walkFiles(scratch.dir, async (relative, stat) => {
    if (!stat.isFile() || scratch.copied.get(relative) === stamp(stat)) return;
    const reason = await writeNoFollow(projectDir, relative, await fs.readFile(path.join(scratch.dir, relative)), stat.mode & 0o777).catch(
      (error: Error) => error.message,
    );
    if (reason) refused.push(`${relative}: ${reason}`);
  });
  return refused;
}

/** Files and bytes of a work tree (without .git/ and .sopworks/), counting up to `maxFiles + 1` files. */
export async function measureTree(root: string, maxFiles: number): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(root, relative), { withFileTypes: true }).catch(() => [])) {
      if (files > maxFiles) return;
      if (relative === '' && LEFT_OUT.has(entry.name)) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else {
        files++;
        if (entry.isFile()) bytes += (await fs.lstat(path.join(root, child)).catch(() => ({ size: 0 }))).size;
      }
    }
  };
  await walk('');
  return { files, bytes };
}
