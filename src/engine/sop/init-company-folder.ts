/**
 * `sopworks sop init DIR`: copies the default sops/ and roles/ to DIR/sops and DIR/roles, to edit.
 * It never overwrites a file unless told to (--force), and then only the files it writes.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';

export interface CompanyFolders {
  sops: string;
  roles: string;
}

export interface InitResult {
  target: CompanyFolders;
  /** Files written, relative to the target folder. */
  written: string[];
  /** Of those, the ones that existed before (only with force). */
  overwritten: string[];
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

const exists = (file: string) =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );

export async function initCompanyFolder(defaults: CompanyFolders, dir: string, options: { force: boolean }): Promise<InitResult> {
  const target = { sops: path.join(dir, 'sops'), roles: path.join(dir, 'roles') };
  const copies: { from: string; to: string; shown: string }[] = [];
  for (const part of ['sops', 'roles'] as const) {
    for (const file of await filesUnder(defaults[part])) {
      copies.push({ from: path.join(defaults[part], file), to: path.join(target[part], file), shown: path.join(part, file) });
    }
  }
  const existing = [];
  for (const copy of copies) if (await exists(copy.to)) existing.push(copy.shown);
  if (existing.length > 0 && !options.force) {
    const listed = existing.slice(0, 5).join(', ') + (existing.length > 5 ? `, and ${existing.length - 5} more` : '');
    throw new SopworksError('OUTPUT_EXISTS', `${dir} already has ${existing.length} of the files sop init writes: ${listed}. Nothing was written.`, {
      hint: 'Choose another folder, or add --force to overwrite those files with the defaults (other files are left alone).',
    });
  }
  try {
    for (const copy of copies) {
      await fs.mkdir(path.dirname(copy.to), { recursive: true });
      await fs.copyFile(copy.from, copy.to);
    }
  } catch (error) {
    throw new SopworksError(
      'OUTPUT_UNWRITABLE',
      `Cannot write the SOP files into ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
      {
        hint: 'Pick a folder you can write to (it is created if missing).',
      },
    );
  }
  return { target, written: copies.map((c) => c.shown), overwritten: existing };
}
