/**
 * The command line of each Node package manager's install, with what the egress-controlled install
 * needs on it: the configured registry (and every scope a repository's .npmrc gives a registry of its
 * own pointed at it), scripts off unless the policy allows them, the lockfile honoured as it is (`npm
 * ci`, `--frozen-lockfile`, `--immutable` for a repository's base), bounded retries, and nothing that
 * loads code of the repository into the installer (pnpm's `--ignore-pnpmfile`). The command line
 * outranks a project's configuration files; what a flag cannot say goes in the wrapper's environment
 * (manager-install.ts).
 */
import type { NodeManager } from './package-manager.ts';
import type { PlanOptions } from './plan-types.ts';

export interface ManagerCommand {
  /** `<manager> install …`: argv[0] is the program's name, resolved before the sandbox starts. */
  argv: string[];
  /** The wrapper's environment for this install (manager-install.ts); empty for npm. */
  env: Record<string, string>;
}

export function managerCommand(manager: NodeManager, registry: string, scopes: readonly string[], options: PlanOptions): ManagerCommand {
  const scoped = scopes.map((scope) => `--${scope}:registry=${registry}`);
  if (manager === 'npm') {
    return {
      argv: [
        'npm',
        options.frozen ? 'ci' : 'install',
        ...(options.scripts ? [] : ['--ignore-scripts']),
        '--no-audit',
        '--no-fund',
        '--no-update-notifier',
        '--registry',
        registry,
        ...scoped,
        '--fetch-retries=1',
        '--fetch-retry-mintimeout=1000',
        '--fetch-retry-maxtimeout=5000',
        '--fetch-timeout=30000',
      ],
      env: {},
    };
  }
  if (manager === 'pnpm') {
    return {
      argv: [
        'pnpm',
        'install',
        options.frozen ? '--frozen-lockfile' : '--no-frozen-lockfile',
        ...(options.scripts ? [] : ['--ignore-scripts']),
        '--ignore-pnpmfile',
        `--registry=${registry}`,
        ...scoped,
        '--config.manage-package-manager-versions=false',
        '--config.package-manager-strict=false',
        '--config.confirm-modules-purge=false',
        '--reporter=append-only',
        '--fetch-retries=1',
        '--fetch-timeout=30000',
      ],
      env: {},
    };
  }
  if (manager === 'yarn-classic') {
    return {
      argv: [
        'yarn',
        'install',
        '--non-interactive',
        '--no-progress',
        ...(options.frozen ? ['--frozen-lockfile'] : []),
        ...(options.scripts ? [] : ['--ignore-scripts']),
        '--registry',
        registry,
        '--network-timeout',
        '30000',
      ],
      // Yarn 1 takes a scope's registry from npm's settings, which the environment outranks.
      env: Object.fromEntries(scopes.map((scope) => [`npm_config_${scope}:registry`, registry])),
    };
  }
  return {
    argv: ['yarn', 'install', ...(options.frozen ? ['--immutable'] : ['--no-immutable']), ...(options.scripts ? [] : ['--mode=skip-build'])],
    env: {
      YARN_NPM_REGISTRY_SERVER: registry.replace(/\/$/, ''),
      YARN_ENABLE_SCRIPTS: options.scripts ? 'true' : 'false',
      YARN_ENABLE_IMMUTABLE_INSTALLS: options.frozen ? 'true' : 'false',
    },
  };
}
