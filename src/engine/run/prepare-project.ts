/**
 * Chooses and checks the project folder before anything is written: a valid name, an output folder we
 * can write, and no silent overwrite of an earlier project.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';

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
    throw new SopworksError(
      'OUTPUT_UNWRITABLE',
      `Cannot write to the output folder ${out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      {
        hint: 'Choose a folder you can write with --out <dir>.',
      },
    );
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
