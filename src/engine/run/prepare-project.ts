/**
 * Chooses and checks the project folder before anything is written — a valid name, an output folder we
 * can write, and no silent overwrite of an earlier project — and makes way for it once the run starts.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { assertMayWrite } from '../../ground/files/index.ts';

/** The project folder, checked: `replaces` when an earlier project is there and `--force` asked to replace it. */
export interface CheckedProjectDir {
  out: string;
  projectDir: string;
  replaces: boolean;
}

const exists = (file: string): Promise<boolean> =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/** The nearest folder of `dir` that exists (itself, or a parent): where making `dir` would start. */
async function nearestExisting(dir: string): Promise<string> {
  let at = dir;
  while (!(await exists(at)) && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

/** Checks the output folder and the project's place in it; writes nothing. */
export async function checkProjectDir(outDir: string, name: string, force: boolean): Promise<CheckedProjectDir> {
  const out = path.resolve(outDir);
  const unwritable = (why: string) =>
    new SopworksError('OUTPUT_UNWRITABLE', `Cannot write to the output folder ${out} (${why}).`, { hint: 'Choose a folder you can write with --out <dir>.' });
  const existing = await nearestExisting(out);
  const stat = await fs.stat(existing);
  if (!stat.isDirectory()) throw unwritable('ENOTDIR');
  await fs.access(existing, fs.constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    throw unwritable(error.code ?? error.message);
  });
  const projectDir = path.join(out, name);
  if (!(await exists(projectDir))) return { out, projectDir, replaces: false };
  if (!force) {
    throw new SopworksError('OUTPUT_EXISTS', `The project ${projectDir} already exists; nothing was changed.`, {
      hint: 'Pick another --name, or pass --force to replace it.',
    });
  }
  return { out, projectDir, replaces: true };
}

/** Makes way for the project: its output folder made, an earlier project removed — announced through `announce`, never silently. */
export async function makeWayForProject(checked: CheckedProjectDir, announce: (line: string) => void): Promise<string> {
  await fs.mkdir(checked.out, { recursive: true });
  if (checked.replaces) {
    // A queued run that lost its lease while starting must not wipe the folder another worker now runs in.
    assertMayWrite(checked.projectDir);
    announce(`Replacing the existing project ${checked.projectDir} (--force).`);
    await fs.rm(checked.projectDir, { recursive: true, force: true });
  }
  return checked.projectDir;
}
