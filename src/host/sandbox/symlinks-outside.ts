/**
 * Symbolic links in the project that point outside it: what generated code leaves behind to make a
 * later write land elsewhere. sopworks itself refuses to write through them (files/safe-path.ts);
 * the run reports them so a person sees them too. Every folder is listed in full, as the system lists
 * it (a stream: a flood of files costs time, not memory); a folder that cannot be listed is named, so
 * the report never says "no link" of a folder it did not see.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { inside } from './path-inside.ts';
import { shownPath } from './shown-path.ts';

/** Folders not searched: git's and sopworks' own, and installed dependencies (npm link makes such links). */
const SKIPPED = new Set(['.git', '.sopworks', 'node_modules', '.venv']);
/** Links named one by one; past these, counted. */
export const LINKS_NAMED = 20;

export interface LinksOutside {
  /** The first LINKS_NAMED links found, as relative paths with their targets. */
  links: { link: string; target: string }[];
  /** How many there are in all. */
  count: number;
  /** Folders that could not be listed (relative, with the reason): links there were not looked for. */
  unlisted: string[];
}

export async function linksOutside(projectDir: string): Promise<LinksOutside> {
  const root = await fs.realpath(projectDir);
  const found: LinksOutside = { links: [], count: 0, unlisted: [] };
  const walk = async (dir: string): Promise<void> => {
    try {
      for await (const entry of await fs.opendir(dir)) {
        const full = path.join(dir, entry.name);
        if (entry.isSymbolicLink()) {
          const target = await fs.readlink(full).catch(() => '?');
          // A link is read where it lies: absolute targets as they are, relative ones from its folder.
          const resolved = path.resolve(path.dirname(full), target);
          const real = await fs.realpath(full).catch(() => resolved);
          if (!inside(resolved, root) || !inside(real, root)) {
            if (found.count++ < LINKS_NAMED) found.links.push({ link: path.relative(root, full), target });
          }
        } else if (entry.isDirectory() && !SKIPPED.has(entry.name)) {
          await walk(full);
        }
      }
    } catch (error) {
      found.unlisted.push(`${shownPath(path.relative(root, dir)) || '.'} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  };
  await walk(root);
  return found;
}
