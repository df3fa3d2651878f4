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
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { type ConfigSetting, npmrcSettings, registryScopes } from './npmrc-settings.ts';
import { OutsideProject, readProjectFile } from './project-file.ts';
import { PYTHON_INSTALL } from './python-install.ts';
import { declaredRequirements } from './python-sources.ts';
import type { ResolvedRegistries } from './registries.ts';

export const NPM_LOCKFILE = 'package-lock.json';
export const PYTHON_LOCKFILE = 'requirements.lock';
/** Where the fingerprint of the last install is kept (inside folders git ignores). */
const MARKERS = { npm: 'node_modules/.sopworks-installed', python: '.venv/.sopworks-installed' } as const;

export interface InstallPlan {
  ecosystem: 'npm' | 'python';
  /** The manifest it installs from: package.json, requirements.txt or pyproject.toml. */
  manifest: string;
  /** pyproject.toml's dependencies, passed to pip one by one (checked before: python-sources.ts). */
  declared: string[];
  argv: string[];
  lockfile: string;
  /** The command as a person would read it (the Python install runs a short script around pip). */
  shown: string[];
  /** Fingerprint of the manifest and lockfile the install starts from. */
  fingerprint: string;
  /** The repository's own installer settings, read as data: honoured or overridden (npmrc-settings.ts). */
  settings: ConfigSetting[];
}

/** A manifest sopworks cannot read: the install fails with this, and the Engineer gets it as a bug. */
export class ManifestProblem extends Error {}

const PackageJson = z
  .object({
    dependencies: z.record(z.string(), z.string()).optional(),
    devDependencies: z.record(z.string(), z.string()).optional(),
    optionalDependencies: z.record(z.string(), z.string()).optional(),
  })
  .passthrough();

const PyProject = z
  .object({
    project: z
      .object({ dependencies: z.array(z.string()).optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();

/**
 * What to run to install the project's dependencies, or null when it declares none. Throws
 * ManifestProblem. `frozen`: exactly as the lockfile says (`npm ci`), for a repository's base.
 */
export async function planInstall(projectDir: string, registries: ResolvedRegistries, scripts: boolean, frozen = false): Promise<InstallPlan | null> {
  const read = async (file: string) => {
    try {
      return readProjectFile(projectDir, file);
    } catch (error) {
      if (error instanceof OutsideProject) throw new ManifestProblem(error.message);
      throw error;
    }
  };
  const packageJson = await read('package.json');
  if (packageJson !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(packageJson);
    } catch (error) {
      throw new ManifestProblem(`package.json is not valid JSON: ${(error as Error).message}`);
    }
    const manifest = PackageJson.safeParse(parsed);
    if (!manifest.success) throw new ManifestProblem(`package.json: ${manifest.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const declared = { ...manifest.data.dependencies, ...manifest.data.devDependencies, ...manifest.data.optionalDependencies };
    if (Object.keys(declared).length > 0) {
      const npmrc = await read('.npmrc');
      const argv = [
        'npm',
        frozen ? 'ci' : 'install',
        ...(scripts ? [] : ['--ignore-scripts']),
        '--no-audit',
        '--no-fund',
        '--no-update-notifier',
        '--registry',
        registries.npm,
        ...registryScopes(npmrc ?? '').map((scope) => `--${scope}:registry=${registries.npm}`),
        '--fetch-retries=1',
        '--fetch-retry-mintimeout=1000',
        '--fetch-retry-maxtimeout=5000',
        '--fetch-timeout=30000',
      ];
      return {
        ecosystem: 'npm',
        manifest: 'package.json',
        declared: [],
        argv,
        shown: argv,
        lockfile: NPM_LOCKFILE,
        fingerprint: fingerprint([packageJson, await read(NPM_LOCKFILE), npmrc]),
        settings: npmrc === null ? [] : npmrcSettings(npmrc, scripts),
      };
    }
  }
  const requirementsTxt = await read('requirements.txt');
  const pyproject = await read('pyproject.toml');
  let requirements: string[] | null = null;
  let declared: string[] = [];
  if (requirementsTxt !== null && requirementsTxt.split('\n').some((line) => line.trim() && !line.trim().startsWith('#'))) {
    requirements = ['-r', 'requirements.txt'];
  } else if (pyproject !== null) {
    let parsed: unknown;
    try {
      parsed = parseToml(pyproject);
    } catch (error) {
      throw new ManifestProblem(`pyproject.toml is not valid TOML: ${(error as Error).message.split('\n')[0]}`);
    }
    const manifest = PyProject.safeParse(parsed);
    if (!manifest.success) throw new ManifestProblem(`pyproject.toml: ${manifest.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const listed = manifest.data.project?.dependencies ?? [];
    if (listed.length > 0) requirements = listed;
  }
  declared = requirements && requirements[0] !== '-r' ? requirements : [];
  if (!requirements) return null;
  const checked = declared.length > 0 ? declared : declaredRequirements(projectDir, 'requirements.txt');
  const lock = await read(PYTHON_LOCKFILE);
  const source = registries.pipFindLinks ? ['--no-index', '--find-links', registries.pipFindLinks] : ['--index-url', registries.pipIndex];
  const pipArgs = [
    '--disable-pip-version-check',
    '--no-input',
    '--timeout',
    '20',
    '--retries',
    '1',
    ...(scripts ? [] : ['--only-binary', ':all:']),
    ...source,
    ...(lock !== null ? ['-c', PYTHON_LOCKFILE] : []),
    ...requirements,
  ];
  return {
    ecosystem: 'python',
    manifest: declared.length > 0 ? 'pyproject.toml' : 'requirements.txt',
    declared,
    argv: ['python3', '-I', '-S', '-c', PYTHON_INSTALL, PYTHON_LOCKFILE, JSON.stringify(checked), ...pipArgs],
    shown: ['python3', '-I', '-m', 'venv', '--clear', '--without-pip', '.venv', '&&', 'pip', 'install', '--prefix', '.venv', ...pipArgs],
    lockfile: PYTHON_LOCKFILE,
    fingerprint: fingerprint([requirementsTxt, pyproject, lock]),
    settings: [],
  };
}

export const fingerprint = (parts: (string | null)[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

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
