/**
 * What an installer may ask of its registry, path by path — everything else is refused. Pure: the
 * proxy (egress-proxy.ts) asks before anything goes upstream.
 *
 * - npm (relative to the registry's URL): a package's metadata, `<name>` or `@scope%2f<name>`
 *   (`@scope/<name>` too), and its tarballs, `<name>/-/<name>-<version>.tgz` (scoped:
 *   `@scope/<name>/-/<name>-<version>.tgz`). Names as npm allows them (URL-safe, at most 214
 *   characters with the scope), versions at most 128 characters, no query string.
 * - a pip index (PEP 503, relative to its URL): a project's page, `<project>/`, the name as PEP 508
 *   allows it, at most 128 characters, no query string.
 * - a pip find-links page: that page alone.
 * - files (wheels, source distributions, their PEP 658 `.metadata`): only those a page the proxy
 *   served in this install listed, on a configured origin (PyPI's files.pythonhosted.org among them).
 *
 * A name is data all the same: a registry that fetches unknown names from an uplink sends each name
 * on — see docs/security.md, "What leaves through an allowed registry".
 */
import { type Origin, originOf, sameOrigin } from './allow-list.ts';

/** npm's rule: a name with its scope is at most 214 characters. */
export const MAX_NPM_NAME = 214;
/** A pip project name (no rule of pip's; long enough for any real one). */
export const MAX_PYTHON_NAME = 128;
export const MAX_VERSION = 128;

export type RegistryKind = 'npm' | 'pip-index' | 'pip-find-links' | 'pip-files';

/** A registry the install may read from: what kind, at which URL (a base URL; the page itself for find-links). */
export interface EgressRegistry {
  kind: RegistryKind;
  url: string;
  /**
   * Another name of an npm registry that a lockfile wrote (Yarn 1 fetches `registry.yarnpkg.com/…` as
   * written): what is asked of `url` is served by this registry, at the same path below it — never
   * sent to `url` itself.
   */
  servedBy?: string;
}

export type PathVerdict =
  /** page: a pip page whose links the proxy reads, to let those files through (listed-files.ts). */
  | { allowed: true; what: 'metadata' | 'file' | 'page' /** Where it is fetched when not where it was asked. */; upstream?: string }
  | { allowed: false; why: string };

const NPM_PART = /^[A-Za-z0-9-][A-Za-z0-9._-]*$/;
const PYTHON_NAME = /^([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$/;
const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;

/** A listed file as the proxy keeps it: the URL without its fragment (`#sha256=…`, never sent). */
export const listedKey = (url: URL): string => `${url.origin}${url.pathname}${url.search}`;

/** Whether a GET or HEAD of `url` is something an installer needs from one of `registries`. */
export function judgePath(registries: readonly EgressRegistry[], url: URL, listed: ReadonlySet<string>): PathVerdict {
  const key = listedKey(url);
  if (listed.has(key) || (key.endsWith('.metadata') && listed.has(key.slice(0, -'.metadata'.length)))) return { allowed: true, what: 'file' };
  const target = originOf(url.href);
  const reasons: string[] = [];
  for (const registry of registries) {
    const base = new URL(registry.url);
    const origin = originOf(registry.url);
    if (!target || !origin || !sameOrigin(origin as Origin, target)) continue;
    const verdict = judgeFor(registry.kind, base, url);
    if (verdict.allowed && registry.servedBy) return { ...verdict, upstream: servedAt(registry, base, url) };
    if (verdict.allowed) return verdict;
    reasons.push(verdict.why);
  }
  return { allowed: false, why: reasons[0] ?? 'not a registry of this install' };
}

/** The same path below the registry that serves another's name. */
function servedAt(registry: EgressRegistry, base: URL, url: URL): string {
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  const server = registry.servedBy!.endsWith('/') ? registry.servedBy! : `${registry.servedBy}/`;
  return new URL(url.pathname.slice(prefix.length), server).href;
}

function judgeFor(kind: RegistryKind, base: URL, url: URL): PathVerdict {
  if (kind === 'pip-find-links') {
    return url.pathname === base.pathname && url.search === base.search
      ? { allowed: true, what: 'page' }
      : { allowed: false, why: 'not the find-links page, nor a file it lists' };
  }
  if (kind === 'pip-files') return { allowed: false, why: 'not a file a page of the index listed' };
  if (url.search !== '') return { allowed: false, why: 'a query string: an installer sends none' };
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  if (!url.pathname.startsWith(prefix)) return { allowed: false, why: `not under the registry's path ${prefix}` };
  const rest = url.pathname.slice(prefix.length);
  return kind === 'npm' ? npmPath(rest) : pythonProjectPath(rest);
}

const NPM_WHY = 'not a package path of an npm registry (<name>, @scope%2f<name>, <name>/-/<name>-<version>.tgz)';

/** `<name>`, `@scope%2f<name>`, `@scope/<name>`; or a tarball under either. */
function npmPath(rest: string): PathVerdict {
  const [packagePart, tarball] = splitTarball(rest);
  const scoped = /^@([^/%]+)(?:%2[fF]|\/)([^/]+)$/.exec(packagePart);
  const [scope, name] = scoped ? [scoped[1]!, scoped[2]!] : [null, packagePart];
  if (!NPM_PART.test(name) || (scope !== null && !NPM_PART.test(scope))) return { allowed: false, why: NPM_WHY };
  const full = scope === null ? name : `@${scope}/${name}`;
  if (full.length > MAX_NPM_NAME) return { allowed: false, why: `a package name over ${MAX_NPM_NAME} characters` };
  if (tarball === null) return { allowed: true, what: 'metadata' };
  const version = tarball.startsWith(`${name}-`) && tarball.endsWith('.tgz') ? tarball.slice(name.length + 1, -'.tgz'.length) : '';
  if (!VERSION.test(version)) return { allowed: false, why: NPM_WHY };
  if (version.length > MAX_VERSION) return { allowed: false, why: `a version over ${MAX_VERSION} characters` };
  return { allowed: true, what: 'file' };
}

/** `a/-/a-1.0.0.tgz` → [`a`, `a-1.0.0.tgz`]; `a` → [`a`, null]. */
function splitTarball(rest: string): [string, string | null] {
  const at = rest.lastIndexOf('/-/');
  if (at === -1) return [rest, null];
  const file = rest.slice(at + 3);
  return file.includes('/') ? [rest, null] : [rest.slice(0, at), file];
}

/** `<project>/` (or without the slash): a PEP 503 project page. */
function pythonProjectPath(rest: string): PathVerdict {
  const name = rest.endsWith('/') ? rest.slice(0, -1) : rest;
  if (!PYTHON_NAME.test(name)) return { allowed: false, why: 'not a project page of a pip index (<index>/<project>/)' };
  if (name.length > MAX_PYTHON_NAME) return { allowed: false, why: `a project name over ${MAX_PYTHON_NAME} characters` };
  return { allowed: true, what: 'page' };
}
