/**
 * What a Yarn repository's yarn.lock names as sources, checked before the install as npm's lockfile
 * is (npm-sources.ts). Yarn 1 writes each package's `resolved` URL and fetches it as written: it must
 * be on the configured registry, or on one of the npm registry's public names, which the egress proxy
 * serves from the configured registry (registries.ts). Yarn 2+ writes a `resolution` per package:
 * `npm:` (the registry), `workspace:` (one of the repository's workspaces), a `patch:` of either (the
 * patch is a file of the repository, applied as data), a tarball URL on the configured registry —
 * never git, another host, a local folder or file, or `exec:` (a script of the repository that
 * makes the package).
 */
import path from 'node:path';
import { parse } from 'yaml';
import { type Origin, originOf, sameOrigin } from '../egress/index.ts';
import { lineOf, type Refusal } from './refusal.ts';
import { NPM_REGISTRY_NAMES } from './registries.ts';

const LOCKFILE = 'yarn.lock';
const FIX = 'let Yarn resolve it from the registry: name a version range in package.json and run yarn install (which rewrites yarn.lock)';
const MAX_PER_FILE = 12;

/** Whether a URL is one the install may fetch: on the configured registry, or one of npm's public names. */
function onRegistry(url: string, home: Origin | null): boolean {
  const origin = originOf(url);
  if (!origin) return false;
  return (home !== null && sameOrigin(origin, home)) || NPM_REGISTRY_NAMES.some((name) => sameOrigin(originOf(name)!, origin));
}

export function yarnLockRefusals(text: string, registry: string, workspaceFolders: readonly string[], berry: boolean): Refusal[] {
  const home = originOf(registry);
  const refusals = berry ? berryRefusals(text, home, new Set(['.', ...workspaceFolders])) : classicRefusals(text, home);
  if (refusals.length <= MAX_PER_FILE) return refusals;
  return [
    ...refusals.slice(0, MAX_PER_FILE),
    { file: LOCKFILE, line: null, found: `${refusals.length - MAX_PER_FILE} more entries`, why: 'the same', fix: FIX },
  ];
}

/** Yarn 1: every `resolved` line. */
function classicRefusals(text: string, home: Origin | null): Refusal[] {
  const refusals: Refusal[] = [];
  text.split('\n').forEach((line, index) => {
    const match = /^\s+resolved\s+"?([^"\s]+)"?\s*$/.exec(line);
    if (!match) return;
    const url = match[1]!;
    if (onRegistry(url, home)) return;
    const why = /^(git|github:|git\+|ssh:)|codeload\.github\.com|\.git(#|$)/.test(url)
      ? 'it installs from a git repository'
      : originOf(url)
        ? 'it resolves from another host than the configured registry'
        : 'it installs a local folder or file, not a registry package';
    refusals.push({ file: LOCKFILE, line: index + 1, found: `resolved ${url}`, why, fix: FIX });
  });
  return refusals;
}

/** Yarn 2+: every entry's `resolution`. */
function berryRefusals(text: string, home: Origin | null, workspaces: ReadonlySet<string>): Refusal[] {
  let lock: Record<string, { resolution?: unknown } | null>;
  try {
    lock = (parse(text) ?? {}) as typeof lock;
  } catch (error) {
    return [{ file: LOCKFILE, line: null, found: 'the lockfile', why: `it is not valid YAML (${(error as Error).message.split('\n')[0]})`, fix: FIX }];
  }
  const refusals: Refusal[] = [];
  for (const [key, entry] of Object.entries(lock)) {
    if (key === '__metadata' || typeof entry?.resolution !== 'string') continue;
    const why = resolutionProblem(entry.resolution, home, workspaces);
    if (why) refusals.push({ file: LOCKFILE, line: lineOf(text, `resolution: "${entry.resolution}"`), found: `resolution ${entry.resolution}`, why, fix: FIX });
  }
  return refusals;
}

/** Why a Yarn 2+ resolution (`name@<protocol>:<rest>`) does not install from the registry or a workspace; null when it does. */
function resolutionProblem(resolution: string, home: Origin | null, workspaces: ReadonlySet<string>): string | null {
  const at = resolution.indexOf('@', 1);
  const reference = at === -1 ? resolution : resolution.slice(at + 1);
  const protocol = /^([a-z+]+):/.exec(reference)?.[1] ?? '';
  if (protocol === 'npm') return null;
  if (protocol === 'workspace')
    return workspaces.has(path.posix.normalize(reference.slice('workspace:'.length))) ? null : 'it names a workspace the repository does not have';
  if (protocol === 'patch') {
    const inner = decodeURIComponent(reference.slice('patch:'.length).split('#')[0]!);
    return resolutionProblem(inner, home, workspaces);
  }
  if (protocol === 'http' || protocol === 'https') return onRegistry(reference, home) ? null : 'it resolves from another host than the configured registry';
  if (protocol === 'exec') return 'it makes the package by running a script of the repository';
  if (/^(git|github|git\+ssh|git\+https|ssh)$/.test(protocol)) return 'it installs from a git repository';
  if (protocol === 'link' || protocol === 'portal') {
    const target = path.posix.normalize(reference.slice(protocol.length + 1).split('::')[0]!);
    return workspaces.has(target) ? null : 'it links a local folder that is not a workspace of the repository';
  }
  return `it installs from a local folder or file (${protocol || 'a path'}), not the registry`;
}
