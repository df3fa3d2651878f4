/**
 * The model cache: `<name>.gguf` files in the models folder, a `<name>.gguf.json` note beside each pulled
 * one (where it came from, its size and sha256), and `<name>.gguf.part` for a download not yet complete.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export const PulledNote = z.object({ url: z.string(), bytes: z.number(), sha256: z.string(), pulledAt: z.string() });
export type PulledNote = z.infer<typeof PulledNote>;

export interface CachedModel {
  name: string;
  file: string;
  bytes: number;
  modifiedMs: number;
  note: PulledNote | null;
}

export const modelFile = (dir: string, name: string): string => path.join(dir, `${name}.gguf`);

/** The cached models, newest first; an absent folder is an empty cache. */
export async function listCachedModels(dir: string): Promise<CachedModel[]> {
  let entries: string[];
  try {
    entries = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const models: CachedModel[] = [];
  for (const entry of entries.filter((e) => e.endsWith('.gguf'))) {
    const file = path.join(dir, entry);
    const stat = await fs.stat(file);
    if (!stat.isFile()) continue;
    models.push({ name: entry.slice(0, -'.gguf'.length), file, bytes: stat.size, modifiedMs: stat.mtimeMs, note: await readNote(file) });
  }
  return models.sort((a, b) => b.modifiedMs - a.modifiedMs);
}

async function readNote(file: string): Promise<PulledNote | null> {
  try {
    return PulledNote.parse(JSON.parse(await fs.readFile(`${file}.json`, 'utf8')));
  } catch {
    return null;
  }
}

export async function writeNote(file: string, note: PulledNote): Promise<void> {
  await fs.writeFile(`${file}.json`, `${JSON.stringify(note, null, 2)}\n`);
}

/** Removes a cached model, its note and any partial download; false when there was none of them. */
export async function removeCachedModel(dir: string, name: string): Promise<boolean> {
  const file = modelFile(dir, name);
  let removed = false;
  for (const p of [file, `${file}.json`, `${file}.part`]) {
    try {
      await fs.rm(p);
      removed = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
