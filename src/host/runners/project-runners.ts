/**
 * What a JavaScript project provides to run, read from its work tree: its package.json scripts, and the
 * binaries of its dependencies — node_modules/.bin's once they are installed; before that (a design is
 * checked before the install) the binaries its lockfile names and its declared dependencies' own names
 * (vitest's binary is vitest), which the install then proves or not.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { findWorkspaces, workspacePatterns } from '../install/index.ts';

export interface ProjectRunners {
  /** package.json's scripts, by name. */
  scripts: string[];
  /** The binaries its dependencies provide. */
  bins: string[];
  /** Whether `bins` are node_modules/.bin's (installed), or read from the manifests before an install. */
  installed: boolean;
  /** A monorepo's packages (package.json's `workspaces`, pnpm-workspace.yaml's `packages`), each with its scripts; absent: one package. */
  workspaces?: WorkspaceScripts[];
}

export interface WorkspaceScripts {
  folder: string;
  name: string | null;
  scripts: string[];
}

export const NO_RUNNERS: ProjectRunners = { scripts: [], bins: [], installed: false };

/** The JavaScript test runners (and coverage wrappers around them) a repository's own tools may be. */
export const JS_RUNNERS = new Set(['vitest', 'jest', 'mocha', 'ava', 'tap', 'tape', 'uvu', 'jasmine', 'c8', 'nyc', 'borp', 'lab', 'qunit']);

/** A project's binaries as said to a model: its test runners first, then the rest. */
export const runnersFirst = (bins: readonly string[]): string[] => [...bins.filter((b) => JS_RUNNERS.has(b)), ...bins.filter((b) => !JS_RUNNERS.has(b))];

/** The first twelve names, saying how many more there are: a list cut silently reads as complete. */
export function someNames(names: readonly string[]): string {
  const shown = names.slice(0, 12).join(', ');
  return names.length > 12 ? `${shown} and ${names.length - 12} more` : shown;
}

const Manifest = z
  .object({
    scripts: z.record(z.string(), z.string()).optional(),
    dependencies: z.record(z.string(), z.unknown()).optional(),
    devDependencies: z.record(z.string(), z.unknown()).optional(),
    optionalDependencies: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough();

/** package-lock.json (v2, v3): each package's entry may list its binaries. */
const Lockfile = z
  .object({ packages: z.record(z.string(), z.object({ bin: z.union([z.string(), z.record(z.string(), z.string())]).optional() }).passthrough()) })
  .passthrough();

export async function readProjectRunners(root: string): Promise<ProjectRunners> {
  const manifest = Manifest.safeParse(await readJson(path.join(root, 'package.json'))).data;
  if (!manifest) return NO_RUNNERS;
  const scripts = Object.keys(manifest.scripts ?? {});
  const workspaces = await workspaceScripts(root);
  const inMonorepo = workspaces.length > 0 ? { workspaces } : {};
  const installed = await fs.readdir(path.join(root, 'node_modules', '.bin')).catch(() => null);
  if (installed) return { scripts, bins: installed.sort(), installed: true, ...inMonorepo };
  const declared = [manifest.dependencies, manifest.devDependencies, manifest.optionalDependencies].flatMap((deps) => Object.keys(deps ?? {}));
  const lock = Lockfile.safeParse(await readJson(path.join(root, 'package-lock.json'))).data;
  const locked = Object.entries(lock?.packages ?? {}).flatMap(([where, entry]) =>
    typeof entry.bin === 'string' ? [path.posix.basename(where)] : Object.keys(entry.bin ?? {}),
  );
  // A scoped package's binary is named without its scope (@scope/tool → tool), as npm links it by default;
  // type packages (@types/node) have none.
  const own = declared.filter((name) => !name.startsWith('@types/')).map((name) => name.replace(/^@[^/]+\//, ''));
  return { scripts, bins: [...new Set([...locked, ...own])].sort(), installed: false, ...inMonorepo };
}

/** The repository's workspaces and the scripts of each. */
async function workspaceScripts(root: string): Promise<WorkspaceScripts[]> {
  const text = (file: string) => fs.readFile(path.join(root, file), 'utf8').catch(() => null);
  const patterns = workspacePatterns(await text('package.json'), await text('pnpm-workspace.yaml'));
  if (!patterns) return [];
  const found: WorkspaceScripts[] = [];
  for (const { folder, name } of findWorkspaces(root, patterns)) {
    const scripts = Manifest.safeParse(await readJson(path.join(root, folder, 'package.json'))).data?.scripts ?? {};
    found.push({ folder, name, scripts: Object.keys(scripts) });
  }
  return found;
}

/** The package a workspace form names, by its folder (`packages/a`) or its package name (`@x/a`). */
export function workspaceOf(runners: ProjectRunners, named: string): WorkspaceScripts | null {
  return runners.workspaces?.find((w) => w.folder === named || w.name === named) ?? null;
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return null;
  }
}
