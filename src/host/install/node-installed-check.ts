/**
 * "Installed" for a pnpm or Yarn install, decided as for npm's (installed-check.ts), but read by the
 * host once the sandbox has ended: for each manifest — the root's and each workspace's — each declared
 * dependency is looked up as Node would find it from that manifest's folder (its `node_modules`, then
 * each parent's, up to the project), never through a link out of the project, and its version checked
 * against the range with semver (an `npm:` alias by the package it names; a `workspace:` dependency
 * must be that workspace's folder; a pnpm `catalog:` by the catalog's range; a tag or a local link by
 * its presence). A missing optional dependency is fine.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { inside } from '../sandbox/index.ts';
import type { UnmetDependency } from './installed-check.ts';
import type { Workspace } from './workspaces.ts';

export interface CheckedManifest {
  /** Its folder, relative to the project ('' for the root). */
  folder: string;
  manifest: Record<string, unknown>;
}

export interface NodeCheckContext {
  projectDir: string;
  workspaces: readonly Workspace[];
  /** pnpm's catalogs (pnpm-workspace.yaml): `catalog:` → the default's range, `catalog:<name>` → that one's. */
  catalogs: Record<string, Record<string, string>>;
}

const FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;

export function checkNodeInstall(manifests: readonly CheckedManifest[], context: NodeCheckContext): UnmetDependency[] {
  const root = fs.realpathSync(context.projectDir);
  const unmet: UnmetDependency[] = [];
  for (const { folder, manifest } of manifests) {
    const file = folder ? `${folder}/package.json` : 'package.json';
    const optional = new Set(Object.keys((manifest.optionalDependencies as Record<string, string> | undefined) ?? {}));
    const declared: Record<string, string> = {};
    for (const field of FIELDS) Object.assign(declared, (manifest[field] as Record<string, string> | undefined) ?? {});
    for (const [name, spec] of Object.entries(declared)) {
      const found = installedPackage(root, folder, name);
      const label = folder ? `${(manifest.name as string | undefined) ?? folder} > ${name}` : name;
      if (!found) {
        if (!optional.has(name)) unmet.push({ name: label, why: `${name}@${spec} (${file}) is not installed` });
        continue;
      }
      const problem = mismatch(name, spec, found, context, root);
      if (problem) unmet.push({ name: label, why: `${name}@${spec} (${file}) is installed at ${problem}, which does not satisfy it` });
    }
  }
  return unmet;
}

interface Installed {
  /** The package's folder, links resolved. */
  real: string;
  name: string | null;
  version: string | null;
}

/** The package `name` as Node resolves it from `folder`, up to the project's root; null when absent. */
function installedPackage(root: string, folder: string, name: string): Installed | null {
  let at = path.join(root, folder);
  for (;;) {
    const candidate = path.join(at, 'node_modules', name);
    let real: string | null = null;
    try {
      real = fs.realpathSync(candidate);
    } catch {
      real = null;
    }
    if (real && inside(real, root)) {
      try {
        const manifest = JSON.parse(fs.readFileSync(path.join(real, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
        return {
          real,
          name: typeof manifest.name === 'string' ? manifest.name : null,
          version: typeof manifest.version === 'string' ? manifest.version : null,
        };
      } catch {
        return { real, name: null, version: null };
      }
    }
    if (at === root) return null;
    at = path.dirname(at);
  }
}

/** What about the installed package does not satisfy the spec (its version, or what it is), or null. */
function mismatch(name: string, spec: string, found: Installed, context: NodeCheckContext, root: string): string | null {
  if (spec.startsWith('workspace:')) {
    const workspace = context.workspaces.find((w) => w.name === name);
    return workspace && found.real === fs.realpathSync(path.join(root, workspace.folder)) ? null : `${path.relative(root, found.real)}, not the workspace`;
  }
  let range = spec;
  let wantedName = name;
  if (spec.startsWith('catalog:')) range = context.catalogs[spec.slice('catalog:'.length) || 'default']?.[name] ?? '*';
  const alias = /^npm:((?:@[^/@]+\/)?[^@]+)@(.*)$/.exec(range);
  if (alias) [, wantedName, range] = alias as unknown as [string, string, string];
  if (alias && found.name !== wantedName) return `${found.name ?? 'a package without a name'}, not ${wantedName}`;
  // A tag, a local folder, a patch or a git source: present is all that can be said.
  if (semver.validRange(range) === null || found.version === null) return null;
  return semver.satisfies(found.version, range, { includePrerelease: true }) ? null : found.version;
}
