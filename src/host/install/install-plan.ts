/**
 * What installing a project's declared dependencies runs, read from its manifest — the command is run
 * by install-project.ts, in the sandbox, with the egress proxy as its only way out:
 *
 * - npm: `npm install --ignore-scripts` from package.json, which writes package-lock.json (kept and
 *   committed, so a later install and `resume` get the same versions).
 * - Python: a virtual environment made anew in the project (`.venv`, git-ignored) and `pip install`
 *   of requirements.txt or pyproject.toml's [project].dependencies, binary wheels only unless scripts
 *   are allowed (building a source distribution runs its setup code); what was installed becomes
 *   requirements.lock, used as constraints by the next install (python-install.ts).
 *
 * The program each names (`npm`, `python3`) is resolved on the host before the sandbox starts
 * (installer-programs.ts).
 *
 * An install whose manifest and lockfile have not changed since the last one is skipped.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { planNodeInstall } from './node-plan.ts';
import { type InstallPlan, ManifestProblem, NPM_LOCKFILE, type PlanOptions, type PlanReader } from './plan-types.ts';
import { OutsideProject, readProjectFile } from './project-file.ts';
import { planPythonInstall } from './python-plan.ts';
import type { ResolvedRegistries } from './registries.ts';

/** Where the fingerprint of the last install is kept (inside folders git ignores). */
const MARKERS = { npm: 'node_modules/.sopworks-installed', python: '.venv/.sopworks-installed' } as const;

export { fingerprint, type InstallPlan, ManifestProblem, NPM_LOCKFILE, type PlanOptions, type PlanReader, PYTHON_LOCKFILE } from './plan-types.ts';

/**
 * What to run to install the project's dependencies, or null when it declares none. Throws
 * ManifestProblem.
 */
export async function planInstall(projectDir: string, registries: ResolvedRegistries, options: PlanOptions): Promise<InstallPlan | null> {
  const read: PlanReader = async (file) => {
    try {
      return readProjectFile(projectDir, file);
    } catch (error) {
      if (error instanceof OutsideProject) throw new ManifestProblem(error.message);
      throw error;
    }
  };
  return (await planNodeInstall(projectDir, read, registries, options)) ?? (await planPythonInstall(projectDir, read, registries, options));
}

/** Whether the last install in this project started from the same manifest and lockfile. */
export async function installedAlready(projectDir: string, plan: InstallPlan): Promise<boolean> {
  const marker = await fs.readFile(path.join(projectDir, MARKERS[plan.ecosystem]), 'utf8').catch(() => null);
  return marker === plan.fingerprint;
}

export async function markInstalled(projectDir: string, plan: InstallPlan): Promise<void> {
  await fs.writeFile(path.join(projectDir, MARKERS[plan.ecosystem]), plan.fingerprint).catch(() => undefined);
}

/** Packages whose install scripts the lockfile says exist (npm's `hasInstallScript`): kept from running. */
export async function packagesWithInstallScripts(projectDir: string): Promise<string[]> {
  const text = await fs.readFile(path.join(projectDir, NPM_LOCKFILE), 'utf8').catch(() => null);
  if (!text) return [];
  const lock = z
    .object({ packages: z.record(z.string(), z.object({ hasInstallScript: z.boolean().optional() }).passthrough()).optional() })
    .safeParse(JSON.parse(text));
  if (!lock.success) return [];
  return Object.entries(lock.data.packages ?? {})
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([where]) => where.replace(/^.*node_modules\//, ''))
    .sort();
}
