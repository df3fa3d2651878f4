/**
 * Reading a project's manifests on the host, for the checks before an install: a file — or a link —
 * that resolves outside the project is not read (its text would end up quoted in a report), and is
 * said to be so; a missing file is null.
 */
import fs from 'node:fs';
import path from 'node:path';
import { inside } from '../sandbox/index.ts';

export class OutsideProject extends Error {}

export function readProjectFile(projectDir: string, file: string): string | null {
  const full = path.join(projectDir, file);
  let real: string;
  try {
    real = fs.realpathSync(full);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      // A dangling link is not a missing file: it points somewhere.
      if (fs.lstatSync(full, { throwIfNoEntry: false })?.isSymbolicLink()) throw new OutsideProject(`${file} is a link to a file that is not in the project`);
      return null;
    }
    throw error;
  }
  if (!inside(real, fs.realpathSync(projectDir))) throw new OutsideProject(`${file} is a link to a file outside the project`);
  if (!fs.statSync(real).isFile()) return null;
  return fs.readFileSync(real, 'utf8');
}
