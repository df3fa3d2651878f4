/**
 * The install plan of a Node project: `npm install` (or `npm ci` for a repository's base) from
 * package.json, scripts off unless the policy allows them, from the configured registry — and the
 * scopes a project .npmrc gives registries of their own pointed at it too (npmrc-settings.ts). A
 * repository's workspaces are installed with it when the plan may link them (workspaces.ts).
 */
import { z } from 'zod';
import { npmrcSettings, registryScopes } from './npmrc-settings.ts';
import { fingerprint, type InstallPlan, ManifestProblem, NPM_LOCKFILE, type PlanOptions, type PlanReader } from './plan-types.ts';
import type { ResolvedRegistries } from './registries.ts';
import { declaredWorkspaces, findWorkspaces, type Workspace } from './workspaces.ts';

const PackageJson = z
  .object({
    dependencies: z.record(z.string(), z.string()).optional(),
    devDependencies: z.record(z.string(), z.string()).optional(),
    optionalDependencies: z.record(z.string(), z.string()).optional(),
  })
  .passthrough();

const hasDependencies = (manifest: z.infer<typeof PackageJson>) =>
  Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.optionalDependencies }).length > 0;

/** A package.json's manifest, parsed; throws ManifestProblem. */
function parseManifest(text: string, file: string): z.infer<typeof PackageJson> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ManifestProblem(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const manifest = PackageJson.safeParse(parsed);
  if (!manifest.success) throw new ManifestProblem(`${file}: ${manifest.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return manifest.data;
}

/** The plan for package.json, or null when there is none or nothing is declared. */
export async function planNodeInstall(projectDir: string, read: PlanReader, registries: ResolvedRegistries, options: PlanOptions): Promise<InstallPlan | null> {
  const packageJson = await read('package.json');
  if (packageJson === null) return null;
  const manifest = parseManifest(packageJson, 'package.json');
  const patterns = options.workspaces ? declaredWorkspaces(manifest) : null;
  const workspaces: Workspace[] = patterns ? findWorkspaces(projectDir, patterns) : [];
  const workspaceManifests: (string | null)[] = [];
  let declares = hasDependencies(manifest);
  for (const workspace of workspaces) {
    const file = `${workspace.folder}/package.json`;
    const text = await read(file);
    workspaceManifests.push(text);
    if (text !== null && hasDependencies(parseManifest(text, file))) declares = true;
  }
  // A manifest that declares workspaces the plan may not link is planned all the same: its refusal says why.
  if (!declares && !(manifest.workspaces !== undefined && !options.workspaces)) return null;
  const npmrc = await read('.npmrc');
  const argv = [
    'npm',
    options.frozen ? 'ci' : 'install',
    ...(options.scripts ? [] : ['--ignore-scripts']),
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
    fingerprint: fingerprint([packageJson, await read(NPM_LOCKFILE), npmrc, ...workspaceManifests]),
    settings: npmrc === null ? [] : npmrcSettings(npmrc, options.scripts),
    workspaces,
  };
}
