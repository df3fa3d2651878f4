/**
 * Symbolic links in the project that point outside it: what generated code leaves behind to make a
 * later write land elsewhere. sopworks itself refuses to write through them (files/safe-path.ts);
 * the run reports them so a person sees them too.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { inside } from './path-inside.ts';

/** Folders not searched: git's and sopworks' own, and installed dependencies (npm link makes such links). */
const SKIPPED = new Set(['.git', '.sopworks', 'node_modules', '.venv']);
const MAX_ENTRIES = 20_000;

export async function linksOutside(projectDir: string): Promise<{ link: string; target: string }[]> {
  const root = await fs.realpath(projectDir);
  const found: { link: string; target: string }[] = [];
  let visited = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (++visited > MAX_ENTRIES) return;
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const target = await fs.readlink(full);
        // A link is read where it lies: absolute targets as they are, relative ones from its folder.
        const resolved = path.resolve(path.dirname(full), target);
        const real = await fs.realpath(full).catch(() => resolved);
        if (!inside(resolved, root) || !inside(real, root)) found.push({ link: path.relative(root, full), target });
      } else if (entry.isDirectory() && !SKIPPED.has(entry.name)) {
        await walk(full);
      }
    }
  };
  await walk(root);
  return found;
}
