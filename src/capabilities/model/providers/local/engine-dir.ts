/**
 * Where sopworks installs the local engine when it is not installed beside it: SOPWORKS_ENGINE_DIR, else
 * the user's cache folder ($XDG_CACHE_HOME or ~/.cache)/sopworks/engine/<version>. A folder per version:
 * an upgraded sopworks installs the engine it was tested with next to the old one.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ENGINE_VERSION } from './engine-packages.ts';

const EngineEnv = z.object({
  SOPWORKS_ENGINE_DIR: z.string().optional(),
  XDG_CACHE_HOME: z.string().optional(),
});

export function engineDir(env: NodeJS.ProcessEnv = process.env): string {
  const e = EngineEnv.parse(env);
  const set = e.SOPWORKS_ENGINE_DIR?.trim();
  if (set) return path.resolve(set.startsWith('~/') ? path.join(os.homedir(), set.slice(2)) : set);
  const cache = e.XDG_CACHE_HOME?.trim() || path.join(os.homedir(), '.cache');
  return path.join(cache, 'sopworks', 'engine', ENGINE_VERSION);
}
