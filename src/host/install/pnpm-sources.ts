/**
 * What a pnpm repository names as sources beyond package.json, checked before the install as npm's
 * are (npm-sources.ts): pnpm-lock.yaml — each package's resolution (the registry's integrity, a
 * tarball on the configured registry; never git, another host or a local folder) and each importer's
 * dependency (a version, or a link to one of the repository's workspaces) — and the catalogs of
 * pnpm-workspace.yaml, whose ranges a `catalog:` dependency takes.
 */
import path from 'node:path';
import { parse } from 'yaml';
import { originOf, sameOrigin } from '../egress/index.ts';
import { specProblem } from './npm-sources.ts';
import { PNPM_WORKSPACE } from './pnpm-workspace.ts';
import { lineOf, type Refusal } from './refusal.ts';

const LOCKFILE = 'pnpm-lock.yaml';
const FIX = `let pnpm resolve it from the registry: name a version range in package.json and run pnpm install (which rewrites ${LOCKFILE})`;
const MAX_PER_FILE = 12;

interface Resolution {
  integrity?: unknown;
  tarball?: unknown;
  type?: unknown;
  directory?: unknown;
  repo?: unknown;
}

type Importer = Record<string, Record<string, { specifier?: unknown; version?: unknown }> | undefined>;

export function pnpmLockRefusals(text: string, registry: string, workspaceFolders: readonly string[]): Refusal[] {
  let lock: { importers?: Record<string, Importer>; packages?: Record<string, { resolution?: Resolution } | null> };
  try {
    lock = (parse(text) ?? {}) as typeof lock;
  } catch (error) {
    return [{ file: LOCKFILE, line: null, found: 'the lockfile', why: `it is not valid YAML (${(error as Error).message.split('\n')[0]})`, fix: FIX }];
  }
  const home = originOf(registry);
  const workspaces = new Set(['.', ...workspaceFolders]);
  const refusals: Refusal[] = [];
  const refuse = (where: string, found: string, why: string) =>
    refusals.push({ file: LOCKFILE, line: lineOf(text, where.split(' > ').at(-1)!) ?? null, found: `${where}: ${found}`, why, fix: FIX });
  for (const [importer, fields] of Object.entries(lock.importers ?? {})) {
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      for (const [name, entry] of Object.entries(fields?.[field] ?? {})) {
        const version = typeof entry?.version === 'string' ? entry.version : '';
        const local = /^(link|file):(.*)$/.exec(version);
        if (!local) continue;
        const target = path.posix.normalize(path.posix.join(importer, local[2]!));
        if (local[1] === 'link' && workspaces.has(target)) continue;
        refuse(`${importer} > ${name}`, version, 'it installs a local folder or file, not a registry package nor a workspace of the repository');
      }
    }
  }
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    const resolution = entry?.resolution;
    if (!resolution) continue;
    if (resolution.type === 'git' || typeof resolution.repo === 'string') refuse(key, `git ${String(resolution.repo)}`, 'it installs from a git repository');
    else if (typeof resolution.directory === 'string' && !workspaces.has(path.posix.normalize(resolution.directory)))
      refuse(key, `directory ${resolution.directory}`, 'it installs a local folder');
    else if (typeof resolution.tarball === 'string') {
      const origin = originOf(resolution.tarball);
      if (!origin) refuse(key, `tarball ${resolution.tarball}`, 'it installs a file of the project, not a registry package');
      else if (!home || !sameOrigin(origin, home)) refuse(key, `tarball ${resolution.tarball}`, 'it resolves from another host than the configured registry');
    }
  }
  if (refusals.length <= MAX_PER_FILE) return refusals;
  return [
    ...refusals.slice(0, MAX_PER_FILE),
    { file: LOCKFILE, line: null, found: `${refusals.length - MAX_PER_FILE} more entries`, why: 'the same', fix: FIX },
  ];
}

/** Each catalog entry must be a version, range or tag of the registry, like a dependency in package.json. */
export function catalogRefusals(text: string, catalogs: Record<string, Record<string, string>>): Refusal[] {
  const refusals: Refusal[] = [];
  for (const [catalog, entries] of Object.entries(catalogs)) {
    for (const [name, spec] of Object.entries(entries)) {
      const problem = specProblem(name, spec);
      if (problem) {
        refusals.push({
          file: PNPM_WORKSPACE,
          line: lineOf(text, name),
          found: `catalog ${catalog}: ${name}: ${spec}`,
          why: problem,
          fix: 'name a version range from the registry instead',
        });
      }
    }
  }
  return refusals;
}
