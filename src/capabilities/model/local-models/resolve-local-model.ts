/**
 * `--llm local`, `--llm local:<name>` and `--llm local:<path.gguf>` → the model file to load. A value
 * with a slash or ending in .gguf is a path; anything else is a name in the model cache. Plain `local`
 * takes the one cached model, or the newest of several (and says which).
 */
import path from 'node:path';
import { SopworksError } from '../../../ground/errors.ts';
import { expandHome } from '../../../ground/files/index.ts';
import { CATALOG, catalogEntry, DEFAULT_PULL } from './catalog.ts';
import { listCachedModels } from './model-cache.ts';
import { modelsDir } from './models-dir.ts';

export interface ResolvedModel {
  file: string;
  /** Why this file, when the user did not name it. */
  chosen: string | null;
}

const looksLikePath = (value: string): boolean => value.includes('/') || value.includes(path.sep) || /\.gguf$/i.test(value);

export async function resolveLocalModel(value: string | null, env: NodeJS.ProcessEnv = process.env): Promise<ResolvedModel> {
  if (value !== null && looksLikePath(value)) return { file: path.resolve(expandHome(value)), chosen: null };
  const dir = modelsDir(env);
  const cached = await listCachedModels(dir);
  if (value === null) {
    if (cached.length === 0) {
      throw new SopworksError('NO_MODEL', `--llm local needs a model, and the model cache (${dir}) is empty.`, {
        hint: `Pull one (nothing is downloaded unless you ask): sopworks models pull ${DEFAULT_PULL} — or give a file: --llm local:<path.gguf>`,
      });
    }
    const newest = cached[0]!;
    const others = cached.length > 1 ? ` (newest of ${cached.length}; choose with --llm local:<name>)` : '';
    return { file: newest.file, chosen: `${newest.name} from ${dir}${others}` };
  }
  const found = cached.find((m) => m.name === value);
  if (found) return { file: found.file, chosen: null };
  const names = cached.map((m) => m.name);
  if (catalogEntry(value)) {
    throw new SopworksError('NO_MODEL', `The model ${value} is not in the model cache (${dir}).`, {
      hint: `Pull it first: sopworks models pull ${value}`,
    });
  }
  throw new SopworksError('USAGE', `Unknown local model "${value}": it is neither in the model cache (${dir}) nor a path to a .gguf file.`, {
    hint: `Cached: ${names.join(', ') || '(none)'}. Recommended (sopworks models pull <name>): ${CATALOG.map((e) => e.name).join(', ')}.`,
  });
}
