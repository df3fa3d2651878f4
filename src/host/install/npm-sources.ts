/**
 * Every way an npm project can name where a package comes from, checked before the install: each
 * dependency spec (dependencies, dev, optional, peer — npm installs peers — and overrides), read with
 * npm's own parser (npm-package-arg), must be a version, range or tag of the registry (an `npm:`
 * alias of one too); workspaces are local folders; a lockfile's entries must resolve from the
 * configured registry and link nothing. (A project `.npmrc` is read as data: npmrc-settings.ts.)
 */
import path from 'node:path';
import npa from 'npm-package-arg';
import { type Origin, originOf, sameOrigin } from '../egress/index.ts';
import { jsonString, lineOf, type Refusal } from './refusal.ts';

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;
const REGISTRY_TYPES = new Set(['version', 'range', 'tag']);
/** Enough to act on; a lockfile of a hundred bad entries says the rest in one line. */
const MAX_PER_FILE = 12;

/**
 * A repository's workspaces, when its install may link them (a change run): a dependency on one of
 * them installs that folder of the project, and nothing else local.
 */
export interface WorkspaceLinks {
  /** Each workspace's folder (relative to the project), by package name. */
  byName: Map<string, string>;
  /** The folder of the manifest being read, relative to the project ('' for the root). */
  from: string;
  /** pnpm's catalogs: a `catalog:` dependency takes its range from one (checked where they are written). */
  catalogs?: Record<string, Record<string, string>>;
}

/** Why a spec does not install from the registry, or null when it does (or names a workspace of the repository). */
export function specProblem(name: string, spec: string, workspaces?: WorkspaceLinks): string | null {
  const sibling = workspaces?.byName.get(name);
  // Yarn 2+: `npm:<range>` (the same name), and a patch of a dependency (the patch is a file, applied as data).
  if (/^npm:[^@]*$/.test(spec) || /^npm:[\^~<>=*\d]/.test(spec)) return specProblem(name, spec.slice('npm:'.length), workspaces);
  if (spec.startsWith('patch:')) {
    const inner = /^((?:@[^/@]+\/)?[^@]+)@(.*)$/.exec(decodeURIComponent(spec.slice('patch:'.length).split('#')[0]!));
    return inner ? specProblem(inner[1]!, inner[2]!, workspaces) : 'it patches something that is not a registry package';
  }
  if (spec.startsWith('catalog:')) {
    const catalog = spec.slice('catalog:'.length) || 'default';
    return workspaces?.catalogs?.[catalog]?.[name] !== undefined ? null : `it names a pnpm catalog (${catalog}) that has no entry for ${name}`;
  }
  if (spec.startsWith('workspace:')) {
    return sibling !== undefined ? null : `it names a workspace, and the repository has no workspace called ${name}`;
  }
  if (sibling !== undefined && /^(file|link|portal):/.test(spec)) {
    const target = path.posix.normalize(path.posix.join(workspaces!.from, spec.replace(/^(file|link|portal):/, '')));
    return target === sibling ? null : `it links a folder that is not the workspace ${name} (${sibling})`;
  }
  let parsed: npa.Result;
  try {
    parsed = npa.resolve(name, spec, '/');
  } catch (error) {
    return `npm does not read it as a version of a registry package (${(error as Error).message.split('\n')[0]})`;
  }
  const type = parsed.type === 'alias' ? (parsed as npa.AliasResult).subSpec.type : parsed.type;
  if (REGISTRY_TYPES.has(type)) return null;
  const kinds: Record<string, string> = {
    git: 'it installs from a git repository',
    remote: 'it installs from a URL, not from the registry',
    file: 'it installs from a file of the project',
    directory: 'it installs from a local folder (npm links or packs it, and builds it)',
  };
  return kinds[type] ?? `npm reads it as a ${type}, not a registry version`;
}

/**
 * `workspaces`: absent, a manifest that declares workspaces is refused (a new project is one package);
 * given, the repository's workspaces are linked, and a dependency may name one of them.
 */
export function packageJsonRefusals(text: string, manifest: Record<string, unknown>, file = 'package.json', workspaces?: WorkspaceLinks): Refusal[] {
  const refusals: Refusal[] = [];
  const fix = (name: string) => `name a version range from the registry instead (e.g. ${jsonString(name)}: "^1.0.0")`;
  for (const field of DEPENDENCY_FIELDS) {
    const deps = manifest[field];
    if (!deps || typeof deps !== 'object') continue;
    const fieldLine = lineOf(text, jsonString(field)) ?? 1;
    for (const [name, spec] of Object.entries(deps as Record<string, unknown>)) {
      const problem = typeof spec === 'string' ? specProblem(name, spec, workspaces) : 'it is not a string';
      if (problem)
        refusals.push({
          file,
          line: lineOf(text, jsonString(name), fieldLine),
          found: `${field}.${name}: ${JSON.stringify(spec)}`,
          why: problem,
          fix: fix(name),
        });
    }
  }
  const overridesLine = lineOf(text, '"overrides"') ?? 1;
  const walkOverrides = (value: unknown, trail: string[]) => {
    if (typeof value === 'string') {
      const key = trail.at(-1) === '.' ? (trail.at(-2) ?? '.') : (trail.at(-1) ?? '');
      const name = key.replace(/(.)@.*$/, '$1');
      // "$name" refers to the spec the project gives that dependency, which is checked above.
      const problem = value.startsWith('$') ? null : specProblem(name, value, workspaces);
      if (problem)
        refusals.push({
          file,
          line: lineOf(text, jsonString(value), overridesLine),
          found: `overrides.${trail.join('.')}: ${JSON.stringify(value)}`,
          why: problem,
          fix: fix(name),
        });
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) walkOverrides(inner, [...trail, key]);
    }
  };
  walkOverrides(manifest.overrides, []);
  if (manifest.workspaces !== undefined && !workspaces) {
    refusals.push({
      file,
      line: lineOf(text, '"workspaces"'),
      found: `workspaces: ${JSON.stringify(manifest.workspaces)}`,
      why: 'workspaces are local folders that npm links and installs from',
      fix: 'remove "workspaces": a new project is one package, its dependencies from the registry',
    });
  }
  return refusals;
}

interface LockEntry {
  version?: unknown;
  resolved?: unknown;
  link?: unknown;
  dependencies?: unknown;
}

/**
 * A lockfile's entries: each resolves from the configured registry, and none is a link or a local
 * folder — but for the repository's workspaces (`folders`, when its install may link them): a
 * workspace's own entry, what is installed under it, and a link to it.
 */
export function lockfileRefusals(text: string, file: string, registry: string, folders: readonly string[] = []): Refusal[] {
  let lock: { packages?: Record<string, LockEntry>; dependencies?: Record<string, LockEntry> };
  const fix = `delete ${file}: the install writes it afresh from the configured registry`;
  try {
    lock = JSON.parse(text);
  } catch (error) {
    return [{ file, line: null, found: 'the lockfile', why: `it is not valid JSON (${(error as Error).message})`, fix }];
  }
  const home = originOf(registry);
  const refusals: Refusal[] = [];
  const workspace = new Set(folders);
  const underWorkspace = (where: string) => folders.some((folder) => where.startsWith(`${folder}/node_modules/`));
  const check = (where: string, entry: LockEntry, folderKey: boolean) => {
    if (folderKey && workspace.has(where)) return;
    if (entry.link === true && typeof entry.resolved === 'string' && workspace.has(entry.resolved)) return;
    const problem =
      folderKey && !where.startsWith('node_modules/') && !underWorkspace(where)
        ? { found: 'a package at a folder of the project', why: 'it installs a local folder, not a registry package' }
        : lockEntryProblem(entry, home);
    if (problem) refusals.push({ file, line: lineOf(text, jsonString(where)), found: `${where}: ${problem.found}`, why: problem.why, fix });
  };
  for (const [where, entry] of Object.entries(lock.packages ?? {})) if (where !== '' && entry && typeof entry === 'object') check(where, entry, true);
  const walk = (deps: unknown, trail: string) => {
    if (!deps || typeof deps !== 'object') return;
    for (const [name, entry] of Object.entries(deps as Record<string, LockEntry>)) {
      if (!entry || typeof entry !== 'object') continue;
      check(`${trail}${name}`, entry, false);
      walk(entry.dependencies, `${trail}${name} > `);
    }
  };
  walk(lock.dependencies, '');
  if (refusals.length <= MAX_PER_FILE) return refusals;
  return [...refusals.slice(0, MAX_PER_FILE), { file, line: null, found: `${refusals.length - MAX_PER_FILE} more entries`, why: 'the same', fix }];
}

function lockEntryProblem(entry: LockEntry, home: Origin | null): { found: string; why: string } | null {
  if (entry.link === true) return { found: `link to ${JSON.stringify(entry.resolved)}`, why: 'it links a local folder into node_modules' };
  for (const field of ['resolved', 'version'] as const) {
    const value = entry[field];
    if (typeof value !== 'string') continue;
    if (field === 'version' && !/^[a-z+]+:|[/\\]/i.test(value)) continue;
    const origin = originOf(value);
    if (!origin) return { found: `${field} ${JSON.stringify(value)}`, why: 'it is not a registry URL (a file, a folder or a git repository)' };
    if (!home || !sameOrigin(origin, home))
      return { found: `${field} ${JSON.stringify(value)}`, why: 'it resolves from another host than the configured registry' };
  }
  return null;
}
