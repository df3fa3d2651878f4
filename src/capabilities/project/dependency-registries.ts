/**
 * Where a dependency install fetches packages from: the user's environment first
 * (SOPWORKS_NPM_REGISTRY, SOPWORKS_PIP_INDEX_URL, SOPWORKS_PIP_FIND_LINKS), then the policy's
 * `dependencies.registries`, then the ecosystem's default. Never the user's own npm or pip
 * configuration: that is where tokens live.
 */
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import type { PolicyPort } from '../../engine/steps/ports.ts';

export const DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org/';
export const DEFAULT_PIP_INDEX = 'https://pypi.org/simple';

export interface DependencyRegistries {
  npm: string;
  /** A PEP 503 index (pip --index-url). */
  pipIndex: string;
  /** A page of links to wheels (pip --no-index --find-links), instead of the index; null when not set. */
  pipFindLinks: string | null;
}

const Url = z.string().url();

export function dependencyRegistries(policy: Pick<PolicyPort, 'dependencies'>, env: NodeJS.ProcessEnv = process.env): DependencyRegistries {
  const pick = (name: string, fromPolicy: string | null, fallback: string): string => {
    const value = env[name]?.trim() || fromPolicy || fallback;
    if (!Url.safeParse(value).success) {
      throw new SopworksError('USAGE', `${name} is not a URL: "${value}".`, {
        hint: `Set ${name} to the registry's address, e.g. http://127.0.0.1:4873/, or unset it.`,
      });
    }
    return value;
  };
  const findLinks = env.SOPWORKS_PIP_FIND_LINKS?.trim() ? pick('SOPWORKS_PIP_FIND_LINKS', null, '') : null;
  return {
    npm: pick('SOPWORKS_NPM_REGISTRY', policy.dependencies.registries.npm, DEFAULT_NPM_REGISTRY),
    pipIndex: pick('SOPWORKS_PIP_INDEX_URL', policy.dependencies.registries.pip, DEFAULT_PIP_INDEX),
    pipFindLinks: findLinks,
  };
}
