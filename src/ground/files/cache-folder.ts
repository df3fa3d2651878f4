/**
 * Folders of sopworks' own under the user's cache — pulled models, the local engine, the repository
 * map's tags: the setting that names one when it is set, else $XDG_CACHE_HOME (or ~/.cache)/sopworks/….
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const Setting = z.string().optional();

/** `~/models/x.gguf` as a shell would read it (a setting or a flag may come quoted, unexpanded). */
export const expandHome = (p: string): string => (p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p);

/** The folder the setting `variable` names (resolved, `~` expanded), else `parts` under sopworks' cache folder. */
export function cacheFolder(env: NodeJS.ProcessEnv, variable: string, ...parts: string[]): string {
  const set = Setting.parse(env[variable])?.trim();
  if (set) return path.resolve(expandHome(set));
  const cache = Setting.parse(env.XDG_CACHE_HOME)?.trim() || path.join(os.homedir(), '.cache');
  return path.join(cache, 'sopworks', ...parts);
}
