/**
 * A package manager this machine does not have, fetched the way any dependency is: an install of one
 * package (`pnpm`, `yarn`, `@yarnpkg/cli-dist`) from the configured registry, by the host's npm, in
 * the sandbox, through the egress proxy, checked against what was asked (install-project.ts runs it).
 * The version is the one the repository names, and when its packageManager field gives a sha512 hash,
 * the tarball's integrity must be that hash. It is kept in sopworks' cache (manager-program.ts), out of
 * every project, and run from there by absolute path: the repository never chooses the installer's code.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { CACHE_MARKER, cacheEntryName, MANAGER_PACKAGES, type ManagerProgram, managersCache } from './manager-program.ts';
import { type ManagerChoice, managerName, type NodeManager } from './package-manager.ts';

/** A package manager that could not be found nor fetched: the install cannot run, and says what to do. */
export class ManagerUnavailable extends SopworksError {}

/** Installs the tool project in `projectDir` (package.json only); what the installer said when it failed. */
export type ToolInstall = (projectDir: string) => Promise<{ passed: boolean; said: string }>;

export async function provisionManager(choice: ManagerChoice, env: NodeJS.ProcessEnv, install: ToolInstall, registry: string): Promise<ManagerProgram> {
  const pkg = MANAGER_PACKAGES[choice.manager as Exclude<NodeManager, 'npm'>];
  const wanted = choice.version ?? (choice.range === '*' ? 'latest' : `^${choice.range}`);
  const root = managersCache(env);
  await fs.mkdir(root, { recursive: true });
  const tool = await fs.mkdtemp(path.join(root, '.fetching-'));
  try {
    await fs.writeFile(
      path.join(tool, 'package.json'),
      JSON.stringify({ name: 'sopworks-package-manager', private: true, dependencies: { [pkg.name]: wanted } }),
    );
    const result = await install(tool);
    if (!result.passed) throw unavailable(choice, wanted, registry, result.said);
    const packageDir = path.join(tool, 'node_modules', pkg.name);
    const { version } = JSON.parse(await fs.readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
    const integrity = lockedIntegrity(JSON.parse(await fs.readFile(path.join(tool, 'package-lock.json'), 'utf8')), pkg.name);
    const checked = checkHash(choice, integrity, wanted);
    await fs.writeFile(path.join(tool, CACHE_MARKER), JSON.stringify({ package: pkg.name, version, integrity, registry }));
    const entryDir = path.join(root, cacheEntryName(pkg.name, version));
    await fs.rename(tool, entryDir).catch(async (error: NodeJS.ErrnoException) => {
      // Another install fetched the same version meanwhile: keep theirs.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
    const kept = path.join(entryDir, 'node_modules', pkg.name);
    return { entry: path.join(kept, pkg.entry), node: true, version, root: kept, from: `fetched by sopworks from ${registry}${checked}` };
  } finally {
    await fs.rm(tool, { recursive: true, force: true });
  }
}

function lockedIntegrity(lock: { packages?: Record<string, { integrity?: string }> }, name: string): string | null {
  return lock.packages?.[`node_modules/${name}`]?.integrity ?? null;
}

/** The packageManager field's hash against the fetched tarball's integrity; says what was checked. */
function checkHash(choice: ManagerChoice, integrity: string | null, wanted: string): string {
  if (!choice.hash) return '';
  const sri = (integrity ?? '').split(/\s+/).find((entry) => entry.startsWith(`${choice.hash!.algorithm}-`));
  if (!sri) return ` (the packageManager field's ${choice.hash.algorithm} hash could not be checked: the registry gives ${integrity ?? 'no integrity'})`;
  const hex = Buffer.from(sri.slice(choice.hash.algorithm.length + 1), 'base64').toString('hex');
  if (hex !== choice.hash.hex) {
    throw new ManagerUnavailable(
      'TEST_RUN_FAILED',
      `The ${managerName(choice.manager)} the registry serves as ${wanted} is not the one package.json's packageManager names: its ${choice.hash.algorithm} is ${hex}, the field says ${choice.hash.hex}.`,
      { hint: 'Check the registry (a mirror may serve another tarball), or correct the hash in packageManager.' },
    );
  }
  return `, its ${choice.hash.algorithm} as packageManager says`;
}

function unavailable(choice: ManagerChoice, wanted: string, registry: string, said: string): ManagerUnavailable {
  const name = managerName(choice.manager);
  const pkg = MANAGER_PACKAGES[choice.manager as Exclude<NodeManager, 'npm'>].name;
  const version = choice.version ?? choice.range;
  return new ManagerUnavailable(
    'TEST_RUN_FAILED',
    `This repository installs with ${name} (${choice.because}). No ${name} ${version} is on this machine's PATH, and sopworks could not fetch ${pkg}@${wanted} from ${registry}${said ? `: ${said}` : ''}.`,
    {
      hint: `Install it where sopworks finds it — \`npm install -g ${pkg}@${choice.version ?? version}\`${choice.manager === 'yarn-berry' ? '' : ` (or \`corepack enable ${choice.manager === 'pnpm' ? 'pnpm' : 'yarn'}\`)`} — or let the install reach a registry that has it (dependencies.network, SOPWORKS_NPM_REGISTRY); then run again.`,
    },
  );
}
