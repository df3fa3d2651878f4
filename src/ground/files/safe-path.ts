/**
 * Paths proposed by agents are untrusted. A path is accepted only as a normalised, relative,
 * forward-slash path that stays inside the project and out of its machinery folders.
 */

import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { SopworksError } from '../errors.ts';
import { hasControls } from '../terminal-text.ts';

const RESERVED = ['.git', '.sopworks'];

/** Returns the normalised form of `candidate`, or the reason it is refused. */
export function checkRelativePath(candidate: string): { ok: true; path: string } | { ok: false; reason: string } {
  if (candidate.trim() === '') return { ok: false, reason: 'the path is empty' };
  if (candidate.includes('\0')) return { ok: false, reason: 'the path contains a NUL byte' };
  // A newline or an escape in a name would forge a line wherever the name is shown (a prompt, a terminal).
  if (hasControls(candidate))
    return { ok: false, reason: 'the path contains a control character (a newline, a tab, an escape); name the file with printable characters' };
  const slashed = candidate.trim().replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) {
    return { ok: false, reason: 'absolute paths are not allowed; use a path relative to the project root' };
  }
  const normalised = path.posix.normalize(slashed).replace(/^\.\//, '').replace(/\/$/, '');
  if (normalised === '.' || normalised === '') return { ok: false, reason: 'the path names the project root, not a file' };
  if (normalised === '..' || normalised.startsWith('../')) {
    return { ok: false, reason: 'the path leaves the project (..)' };
  }
  const first = normalised.split('/')[0]!;
  if (RESERVED.includes(first)) return { ok: false, reason: `${first}/ is reserved for sopworks and git` };
  return { ok: true, path: normalised };
}

/** zod type for a project-relative path: validates and normalises. */
/** What checkRelativePath refuses, said where a schema is shown to a model. */
export const RELATIVE_PATH_RULE = `a file's path relative to the project root, with "/" between folders: not absolute, no ".." leaving the project, not in ${RESERVED.map((r) => `${r}/`).join(' or ')}, no control characters`;

export const RelativePath = z
  .string()
  .transform((value, ctx) => {
    const result = checkRelativePath(value);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: `unsafe path "${value}": ${result.reason}` });
      return z.NEVER;
    }
    return result.path;
  })
  .describe(RELATIVE_PATH_RULE);

/**
 * Resolves a relative path to an absolute one under `root`, refusing symlink escapes: the deepest
 * existing ancestor of the target must itself resolve inside the root.
 */
export async function resolveInside(root: string, relative: string): Promise<string> {
  const checked = checkRelativePath(relative);
  if (!checked.ok) {
    throw new SopworksError('PATH_UNSAFE', `Refused path "${relative}": ${checked.reason}.`);
  }
  const realRoot = await fs.realpath(root);
  const target = path.join(realRoot, ...checked.path.split('/'));
  let probe = target;
  for (;;) {
    try {
      const real = await fs.realpath(probe);
      if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
        throw new SopworksError('PATH_UNSAFE', `Refused path "${relative}": it goes through a symbolic link that points outside the project.`);
      }
      return target;
    } catch (error) {
      if (SopworksError.isInstance(error)) throw error;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // A link whose target does not exist: writing through it would create the target, wherever it is.
      if (
        await fs.lstat(probe).then(
          (s) => s.isSymbolicLink(),
          () => false,
        )
      ) {
        const pointsTo = path.resolve(path.dirname(probe), await fs.readlink(probe));
        const outside = pointsTo !== realRoot && !pointsTo.startsWith(realRoot + path.sep);
        throw new SopworksError(
          'PATH_UNSAFE',
          `Refused path "${relative}": it goes through a ${outside ? 'symbolic link that points outside the project' : 'dangling symbolic link'}.`,
        );
      }
      const parent = path.dirname(probe);
      if (parent === probe) return target;
      probe = parent;
    }
  }
}
