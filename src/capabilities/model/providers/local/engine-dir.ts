/**
 * Where sopworks installs the local engine when it is not installed beside it: SOPWORKS_ENGINE_DIR, else
 * the user's cache folder ($XDG_CACHE_HOME or ~/.cache)/sopworks/engine/<version>. A folder per version:
 * an upgraded sopworks installs the engine it was tested with next to the old one.
 */
import { cacheFolder } from '../../../../ground/files/index.ts';
import { ENGINE_VERSION } from './engine-packages.ts';

export const engineDir = (env: NodeJS.ProcessEnv = process.env): string => cacheFolder(env, 'SOPWORKS_ENGINE_DIR', 'engine', ENGINE_VERSION);
