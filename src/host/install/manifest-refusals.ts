/**
 * Every file an install reads that could name a package source, checked before it runs: for npm the
 * manifest, the lockfiles npm reads (package-lock.json, npm-shrinkwrap.json, the hidden
 * node_modules/.package-lock.json) — a project .npmrc only when it is a link out of the project; for Python the requirements file and the
 * files it includes, the constraints lockfile, or pyproject.toml's dependencies.
 */

import type { InstallPlan } from './install-plan.ts';
import { lockfileRefusals, packageJsonRefusals } from './npm-sources.ts';
import { catalogRefusals, pnpmLockRefusals } from './pnpm-sources.ts';
import { PNPM_WORKSPACE } from './pnpm-workspace.ts';
import { OutsideProject, readProjectFile } from './project-file.ts';
import { pyprojectRefusals, requirementsRefusals } from './python-sources.ts';
import { lineOf, type Refusal } from './refusal.ts';
import type { ResolvedRegistries } from './registries.ts';
import { yarnLockRefusals } from './yarn-sources.ts';

const NPM_LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'node_modules/.package-lock.json'];

/** `options.workspaces`: the repository's workspaces are linked (a change run); otherwise declaring them is refused. */
export async function manifestRefusals(
  projectDir: string,
  plan: InstallPlan,
  registries: ResolvedRegistries,
  options: { workspaces: boolean },
): Promise<Refusal[]> {
  const refusals: Refusal[] = [];
  const read = (file: string): string | null => {
    try {
      return readProjectFile(projectDir, file);
    } catch (error) {
      if (!(error instanceof OutsideProject)) throw error;
      refusals.push({ file, line: null, found: file, why: error.message, fix: `make ${file} a file of the project` });
      return null;
    }
  };
  if (plan.ecosystem === 'npm') {
    const byName = new Map(plan.workspaces.flatMap((w) => (w.name === null ? [] : [[w.name, w.folder] as const])));
    const links = (from: string) => (options.workspaces ? { byName, from, catalogs: plan.catalogs } : undefined);
    const text = read('package.json');
    if (text !== null) refusals.push(...packageJsonRefusals(text, JSON.parse(text) as Record<string, unknown>, 'package.json', links('')));
    // Each workspace's manifest names sources too; the install links the workspaces to each other.
    for (const workspace of plan.workspaces) {
      const file = `${workspace.folder}/package.json`;
      const manifest = read(file);
      if (manifest !== null) refusals.push(...packageJsonRefusals(manifest, JSON.parse(manifest) as Record<string, unknown>, file, links(workspace.folder)));
    }
    const folders = plan.workspaces.map((w) => w.folder);
    if (plan.manager?.manager === 'pnpm') refusals.push(...pnpmRefusals(read, plan, registries.npm, options.workspaces));
    else if (plan.manager?.manager === 'yarn-classic' || plan.manager?.manager === 'yarn-berry') {
      const lock = read('yarn.lock');
      if (lock !== null) refusals.push(...yarnLockRefusals(lock, registries.npm, folders, plan.manager.manager === 'yarn-berry'));
    } else if (plan.manager?.manager === 'npm' || !plan.manager) {
      for (const lockfile of NPM_LOCKFILES) {
        const lock = read(lockfile);
        if (lock !== null) refusals.push(...lockfileRefusals(lock, lockfile, registries.npm, folders));
      }
    }
    // A project .npmrc is read as data (npmrc-settings.ts); only a link out of the project is refused.
    read('.npmrc');
    return refusals;
  }
  // Each source of requirements: the files pip reads, those naming the project itself, and each requirement passed by name where it was read.
  const python = plan.python ?? { files: [] as string[], named: [] as { requirement: string; from: string }[], selfNaming: [] as string[] };
  for (const file of [...python.files, ...python.selfNaming]) refusals.push(...requirementsRefusals(projectDir, file));
  const named = python.named.filter((n) => n.from !== 'uv.lock' && !python.selfNaming.includes(n.from));
  for (const file of new Set(named.map((n) => n.from))) {
    refusals.push(
      ...pyprojectRefusals(
        read(file) ?? '',
        named.filter((n) => n.from === file).map((n) => n.requirement),
        file,
      ),
    );
  }
  if (read('requirements.lock') !== null) refusals.push(...requirementsRefusals(projectDir, 'requirements.lock'));
  return refusals;
}

/** pnpm-workspace.yaml's workspaces (refused for a new project) and catalogs, and pnpm-lock.yaml. */
function pnpmRefusals(read: (file: string) => string | null, plan: InstallPlan, registry: string, workspaces: boolean): Refusal[] {
  const refusals: Refusal[] = [];
  const yaml = read(PNPM_WORKSPACE);
  if (yaml !== null) {
    refusals.push(...catalogRefusals(yaml, plan.catalogs));
    if (!workspaces && /^packages\s*:/m.test(yaml)) {
      refusals.push({
        file: PNPM_WORKSPACE,
        line: lineOf(yaml, 'packages'),
        found: 'packages: (workspaces)',
        why: 'workspaces are local folders that pnpm links and installs from',
        fix: `remove the packages list from ${PNPM_WORKSPACE}: a new project is one package, its dependencies from the registry`,
      });
    }
  }
  const lock = read('pnpm-lock.yaml');
  if (lock !== null)
    refusals.push(
      ...pnpmLockRefusals(
        lock,
        registry,
        plan.workspaces.map((w) => w.folder),
      ),
    );
  return refusals;
}
