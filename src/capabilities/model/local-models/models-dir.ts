/** Where pulled models live: SOPWORKS_MODELS_DIR, else the user's cache folder ($XDG_CACHE_HOME or ~/.cache). */
import { cacheFolder } from '../../../ground/files/index.ts';

export const modelsDir = (env: NodeJS.ProcessEnv = process.env): string => cacheFolder(env, 'SOPWORKS_MODELS_DIR', 'models');
