/**
 * Chooses and checks the project folder before anything is written: a valid name, an output folder we
 * can write, and no silent overwrite of an earlier project.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { transliterate } from 'transliteration';
import { SopworksError } from '../errors.ts';

export const PROJECT_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * A project name from a spec: its first few meaningful words, kebab-case — in any script, transliterated
 * to Latin letters by a kept library (`Wörterzähler` → `worterzahler`, `счётчик слов` → `schyotchik-slov`,
 * `统计词频` → `tong-ji-ci-pin`) rather than its letters dropped.
 */
export function projectNameFromSpec(spec: string): string {
  const stop = new Set(['a', 'an', 'the', 'that', 'which', 'for', 'of', 'in', 'to', 'and', 'with', 'on']);
  const words = transliterate(spec)
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !stop.has(w));
  return words.slice(0, 4).join('-').slice(0, 48).replace(/-+$/, '') || 'project';
}

export function checkProjectName(name: string): string {
  if (!PROJECT_NAME.test(name)) {
    throw new SopworksError('USAGE', `Invalid project name "${name}".`, {
      hint: 'Use lower-case letters, digits, dots, dashes and underscores (up to 64), starting with a letter or digit.',
    });
  }
  return name;
}

/**
 * Returns the absolute project folder, ready to be created. With `force`, an existing project is
 * removed — announced through `announce`, never silently.
 */
export async function prepareProjectDir(outDir: string, name: string, force: boolean, announce: (line: string) => void): Promise<string> {
  const out = path.resolve(outDir);
  try {
    await fs.mkdir(out, { recursive: true });
    await fs.access(out, fs.constants.W_OK);
  } catch (error) {
    throw new SopworksError('OUTPUT_UNWRITABLE', `Cannot write to the output folder ${out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`, {
      hint: 'Choose a folder you can write with --out <dir>.',
    });
  }
  const project = path.join(out, name);
  const exists = await fs.stat(project).then(
    () => true,
    () => false,
  );
  if (exists) {
    if (!force) {
      throw new SopworksError('OUTPUT_EXISTS', `The project ${project} already exists; nothing was changed.`, {
        hint: 'Pick another --name, or pass --force to replace it.',
      });
    }
    announce(`Replacing the existing project ${project} (--force).`);
    await fs.rm(project, { recursive: true, force: true });
  }
  return project;
}
