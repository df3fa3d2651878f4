/**
 * Where an install's packages come from, and so what its egress proxy lets through. The caller names
 * the registries (the environment's SOPWORKS_* settings, the policy); what it leaves null is the
 * user's own setting (their npm `registry`, their pip `index-url`: a mirror), else the ecosystem's
 * default. A `user:password@` in any of them is taken out: the sandbox sees the bare URL, and the
 * proxy adds the credential.
 */
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import { type Credential, type EgressRegistry, type Origin, originOf, sameOrigin } from '../egress/index.ts';
import type { NodeManager } from './package-manager.ts';
import { type UserRegistrySettings, withoutCredentials } from './user-registry-settings.ts';

export const DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org/';
export const DEFAULT_PIP_INDEX = 'https://pypi.org/simple';

export interface DependencyRegistries {
  /** null: the user's npm registry, else the default. */
  npm: string | null;
  /** A PEP 503 index (pip --index-url); null: the user's, else the default. */
  pipIndex: string | null;
  /** A page of links to wheels (pip --no-index --find-links), instead of the index; null when not set. */
  pipFindLinks: string | null;
}

const Url = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'an http(s) URL');

/**
 * The registries as configured: SOPWORKS_NPM_REGISTRY, SOPWORKS_PIP_INDEX_URL and
 * SOPWORKS_PIP_FIND_LINKS first, then the configuration's (a policy's `dependencies.registries`,
 * named by `source` in messages). Anything that is not an http(s) URL is refused.
 */
export function configuredRegistries(
  configured: { npm: string | null; pip: string | null },
  source: string,
  env: NodeJS.ProcessEnv = process.env,
): DependencyRegistries {
  const pick = (name: string, fromConfig: string | null): string | null => {
    const value = env[name]?.trim() || fromConfig;
    if (value === null || value === undefined) return null;
    if (!Url.safeParse(value).success) {
      throw new SopworksError('USAGE', `${env[name]?.trim() ? name : `dependencies.registries in ${source}`} is not an http(s) URL: "${value}".`, {
        hint: "Set it to the registry's address, e.g. http://127.0.0.1:4873/, or unset it.",
      });
    }
    return value;
  };
  return {
    npm: pick('SOPWORKS_NPM_REGISTRY', configured.npm),
    pipIndex: pick('SOPWORKS_PIP_INDEX_URL', configured.pip),
    pipFindLinks: pick('SOPWORKS_PIP_FIND_LINKS', null),
  };
}

export interface ResolvedRegistries {
  npm: string;
  pipIndex: string;
  pipFindLinks: string | null;
  /** Credentials taken out of the URLs, for the proxy. */
  credentials: Credential[];
}

export function resolveRegistries(configured: DependencyRegistries, user: Pick<UserRegistrySettings, 'npmRegistry' | 'pipIndex'>): ResolvedRegistries {
  const credentials: Credential[] = [];
  const bare = (url: string, from: string) => {
    const { url: clean, credential } = withoutCredentials(url, from);
    if (credential) credentials.push(credential);
    return clean;
  };
  return {
    npm: bare(
      configured.npm ?? user.npmRegistry?.value ?? DEFAULT_NPM_REGISTRY,
      configured.npm ? 'the npm registry' : (user.npmRegistry?.from ?? 'the default'),
    ),
    pipIndex: bare(
      configured.pipIndex ?? user.pipIndex?.value ?? DEFAULT_PIP_INDEX,
      configured.pipIndex ? 'the pip index' : (user.pipIndex?.from ?? 'the default'),
    ),
    pipFindLinks: configured.pipFindLinks ? bare(configured.pipFindLinks, 'the pip find-links page') : null,
    credentials,
  };
}

/**
 * The origins an install of one ecosystem may reach: its registry. PyPI serves its files from
 * files.pythonhosted.org, so the default index brings that host with it; any other index must serve
 * its files itself (or be a mirror that does).
 */
export function allowedOrigins(registries: ResolvedRegistries, ecosystem: 'npm' | 'python'): Origin[] {
  return egressRegistries(registries, ecosystem)
    .map((registry) => originOf(registry.url))
    .filter((origin): origin is Origin => origin !== null);
}

/** The npm registry's public names, which a Yarn 1 lockfile writes and Yarn fetches as written. */
export const NPM_REGISTRY_NAMES = ['https://registry.yarnpkg.com/', DEFAULT_NPM_REGISTRY];

/**
 * The registries of an install as its egress proxy reads them: each with what an installer may ask of
 * it. Yarn 1 fetches each package from the URL its lockfile names; the npm registry's public names
 * there are served by the configured registry (never reached themselves, unless one is it).
 */
export function egressRegistries(registries: ResolvedRegistries, ecosystem: 'npm' | 'python', manager: NodeManager | null = null): EgressRegistry[] {
  if (ecosystem === 'npm') {
    const own: EgressRegistry = { kind: 'npm', url: registries.npm };
    if (manager !== 'yarn-classic') return [own];
    const home = originOf(registries.npm);
    const others = NPM_REGISTRY_NAMES.filter((name) => !home || !sameOrigin(originOf(name)!, home));
    return [own, ...others.map((url): EgressRegistry => ({ kind: 'npm', url, servedBy: registries.npm }))];
  }
  if (registries.pipFindLinks) return [{ kind: 'pip-find-links', url: registries.pipFindLinks }];
  const pypi = originOf(registries.pipIndex)?.host === 'pypi.org';
  return [{ kind: 'pip-index', url: registries.pipIndex }, ...(pypi ? [{ kind: 'pip-files' as const, url: 'https://files.pythonhosted.org/' }] : [])];
}
