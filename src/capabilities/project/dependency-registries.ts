/**
 * Where a dependency install fetches packages from, as the policy and the environment name it:
 * SOPWORKS_NPM_REGISTRY, SOPWORKS_PIP_INDEX_URL, SOPWORKS_PIP_FIND_LINKS first, then the policy's
 * `dependencies.registries`. What neither names is left null: the install then takes the user's own
 * registry setting (a mirror), else the ecosystem's default (src/host/install/registries.ts). The
 * egress proxy lets the install reach exactly these, and nothing else.
 */
import type { PolicyPort } from '../../engine/steps/index.ts';
import { configuredRegistries, type DependencyRegistries } from '../../host/install/index.ts';

export function dependencyRegistries(policy: Pick<PolicyPort, 'dependencies' | 'source'>, env: NodeJS.ProcessEnv = process.env): DependencyRegistries {
  return configuredRegistries(policy.dependencies.registries, policy.source, env);
}
