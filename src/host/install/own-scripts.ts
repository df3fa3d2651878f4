/**
 * The install-time scripts a repository's root package.json declares for itself (npm runs them around its
 * own `npm install`: preinstall, install, postinstall, prepare…) — which sopworks does not run while the
 * policy keeps install scripts off (docs/decisions/2026-11-27-a-repositorys-own-install-scripts-stay-off.md).
 * Named so that tests which need what they write (changesets' `preconstruct dev`, which writes the `dist/`
 * its packages' tests import) fail with the cause said, not a missing module alone.
 */
import { OutsideProject, readProjectFile } from './project-file.ts';

/** npm's lifecycle scripts of the root package on `npm install`, in the order it runs them. */
const LIFECYCLE = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'] as const;

export interface OwnScript {
  name: string;
  command: string;
}

/** The root package.json's install-time scripts; none when it has none, or cannot be read. */
export function ownInstallScripts(projectDir: string): OwnScript[] {
  let text: string | null;
  try {
    text = readProjectFile(projectDir, 'package.json');
  } catch (error) {
    if (error instanceof OutsideProject) return [];
    throw error;
  }
  if (text === null) return [];
  let scripts: unknown;
  try {
    scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
  } catch {
    return [];
  }
  if (typeof scripts !== 'object' || scripts === null) return [];
  const declared = scripts as Record<string, unknown>;
  return LIFECYCLE.filter((name) => typeof declared[name] === 'string' && (declared[name] as string).trim() !== '').map((name) => ({
    name,
    command: (declared[name] as string).trim(),
  }));
}
