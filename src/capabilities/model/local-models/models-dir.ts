/** Where pulled models live: SOPWORKS_MODELS_DIR, else the user's cache folder ($XDG_CACHE_HOME or ~/.cache). */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const ModelsEnv = z.object({
  SOPWORKS_MODELS_DIR: z.string().optional(),
  XDG_CACHE_HOME: z.string().optional(),
});

export function modelsDir(env: NodeJS.ProcessEnv = process.env): string {
  const e = ModelsEnv.parse(env);
  const set = e.SOPWORKS_MODELS_DIR?.trim();
  if (set) return path.resolve(expandHome(set));
  const cache = e.XDG_CACHE_HOME?.trim() || path.join(os.homedir(), '.cache');
  return path.join(cache, 'sopworks', 'models');
}

/** `~/models/x.gguf` as a shell would read it (the flag may come quoted, unexpanded). */
export const expandHome = (p: string): string => (p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p);
