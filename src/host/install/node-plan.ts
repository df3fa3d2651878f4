/**
 * The install plan of a Node project, with the package manager its repository installs with
 * (package-manager.ts: npm, pnpm, Yarn 1 or Yarn 2+; manager-commands.ts builds the command), scripts
 * off unless the policy allows them, from the configured registry; the repository's own settings
 * (.npmrc, pnpm-workspace.yaml) read as data (npmrc-settings.ts, pnpm-workspace.ts). A repository's
 * workspaces — package.json's `workspaces`, or pnpm-workspace.yaml's `packages` — are installed with
 * it when the plan may link them (workspaces.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { managerCommand } from './manager-commands.ts';
import { type ConfigSetting, npmrcSettings, registryScopes } from './npmrc-settings.ts';
import { chooseManager, type NodeManager } from './package-manager.ts';
import { fingerprint, type InstallPlan, ManifestProblem, type PlanOptions, type PlanReader } from './plan-types.ts';
import { PNPM_WORKSPACE, type PnpmWorkspace, readPnpmWorkspace } from './pnpm-workspace.ts';
import type { ResolvedRegistries } from './registries.ts';
import { declaredWorkspaces, findWorkspaces, type Workspace } from './workspaces.ts';
import { berrySettings, yarnrcSettings } from './yarn-settings.ts';

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
  const texts = new Map<string, string | null>();
  const readOnce = async (file: string) => {
    if (!texts.has(file)) texts.set(file, await read(file));
    return texts.get(file)!;
  };
  // The files that choose the manager, read once: bun's binary lockfile only for whether it is there.
  for (const file of ['pnpm-lock.yaml', 'yarn.lock', 'package-lock.json', 'npm-shrinkwrap.json', 'bun.lock', '.yarnrc.yml', PNPM_WORKSPACE])
    await readOnce(file);
  texts.set('bun.lockb', (await exists(projectDir, 'bun.lockb')) ? '' : null);
  const chosen = chooseManager({
    packageManager: manifest.packageManager,
    has: (file) => texts.get(file) !== null,
    head: (file) => texts.get(file)?.slice(0, 4096) ?? null,
  });
  const pnpmText = chosen.manager === 'pnpm' ? texts.get(PNPM_WORKSPACE)! : null;
  const pnpm: PnpmWorkspace | null = pnpmText !== null ? readPnpmWorkspace(pnpmText, options.scripts) : null;
  const declaredPatterns = chosen.manager === 'pnpm' ? (pnpm?.packages ?? null) : declaredWorkspaces(manifest);
  const workspaces: Workspace[] = options.workspaces && declaredPatterns ? findWorkspaces(projectDir, declaredPatterns) : [];
  const workspaceManifests: (string | null)[] = [];
  let declares = hasDependencies(manifest);
  for (const workspace of workspaces) {
    const file = `${workspace.folder}/package.json`;
    const text = await read(file);
    workspaceManifests.push(text);
    if (text !== null && hasDependencies(parseManifest(text, file))) declares = true;
  }
  // A manifest that declares workspaces the plan may not link is planned all the same: its refusal says why.
  if (!declares && !(declaredPatterns !== null && !options.workspaces)) return null;
  const config = await managerConfig(chosen.manager, readOnce, pnpm, options.scripts);
  const command = managerCommand(chosen.manager, registries.npm, config.scopes, options);
  return {
    ecosystem: 'npm',
    manifest: 'package.json',
    declared: [],
    argv: command.argv,
    shown: command.argv,
    lockfile: chosen.lockfile,
    fingerprint: fingerprint([packageJson, texts.get(chosen.lockfile) ?? null, ...config.files, ...workspaceManifests]),
    settings: config.settings,
    workspaces,
    manager: chosen,
    wrapper: chosen.manager === 'npm' ? null : { env: command.env, yarnrc: config.yarnrc },
    catalogs: pnpm?.catalogs ?? {},
  };
}

/**
 * The repository's configuration files this manager reads, each read as data: their settings'
 * verdicts, the scopes they give registries of their own, the Yarn 2+ configuration Yarn gets
 * instead of its own, and their texts (the install's fingerprint).
 */
async function managerConfig(manager: NodeManager, read: PlanReader, pnpm: PnpmWorkspace | null, scripts: boolean) {
  const npmrc = manager === 'yarn-berry' ? null : await read('.npmrc');
  const yarnrc = manager === 'yarn-classic' ? await read('.yarnrc') : null;
  const yml = manager === 'yarn-berry' ? await read('.yarnrc.yml') : null;
  const classic = yarnrc === null ? null : yarnrcSettings(yarnrc, scripts);
  const berry = manager === 'yarn-berry' ? berrySettings(yml ?? '', scripts) : null;
  const settings: ConfigSetting[] = [
    ...(npmrc === null ? [] : npmrcSettings(npmrc, scripts)),
    ...(pnpm?.settings ?? []),
    ...(classic?.settings ?? []),
    ...(berry?.settings ?? []),
  ];
  return {
    settings,
    scopes: [...new Set([...registryScopes(npmrc ?? ''), ...(classic?.scopes ?? [])])],
    yarnrc: berry?.honoured ?? null,
    files: [npmrc, yarnrc, yml, await read(PNPM_WORKSPACE)],
  };
}

const exists = (projectDir: string, file: string) =>
  fs
    .lstat(path.join(projectDir, file))
    .then(() => true)
    .catch(() => false);
