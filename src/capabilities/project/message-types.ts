/** A dependency install before a test round, as a board message: commits the lockfile it produced, when it changed. */
import * as S from '../../documents/index.ts';
import { defineMessage } from '../../engine/board/index.ts';

export const Dependencies = defineMessage({
  schema: S.DependencyInstall,
  description:
    'A dependency install before a test round (installDependencies); commits the lockfile it wrote when it changed (package-lock.json, requirements.lock).',
  files: (install) => (install.lockfile ? [install.lockfile] : []),
  paths: (install) => (install.lockfile ? [install.lockfile.path] : []),
  subject: (install) => `build: lock the dependencies (${install.lockfile?.path ?? 'unchanged'})`,
});
