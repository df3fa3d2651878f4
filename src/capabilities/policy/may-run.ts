/**
 * Whether a role may run a command in the sandbox — pure. The command must start with the words of
 * one of the role's `run` entries, and must not install dependencies: those come only from the
 * project's manifest, in a step of their own, when the policy allows it (src/host/install/install-project.ts).
 */
import path from 'node:path';
import { rulesOf } from './may-write.ts';
import type { Policy } from './policy-file.ts';

/** Package-manager subcommands that fetch and install packages. */
const INSTALLS: [RegExp, RegExp][] = [
  [/^(npm|pnpm)$/, /^(install|i|ci|add|update|up|exec|dlx)$/],
  [/^yarn$/, /^(|install|add|up|upgrade|dlx)$/], // a bare `yarn` installs
  [/^npx$/, /.*/],
  [/^pip[\d.]*$/, /^(install|download)$/],
  [/^(poetry|pdm|pipenv)$/, /^(install|add|update|sync|lock)$/],
  [/^uv$/, /^(pip|sync|add|tool|run)$/],
  [/^go$/, /^(get|install|mod)$/],
  [/^cargo$/, /^(install|fetch|add)$/],
  [/^(gem|bundle|composer)$/, /^(install|add|update|require)$/],
];

export function isInstallCommand(argv: readonly string[]): boolean {
  const words = [...argv];
  // `python -m pip install …` is pip.
  if (/^python[\d.]*$/.test(path.basename(words[0] ?? '')) && words[1] === '-m' && words[2]) words.splice(0, 2);
  const program = path.basename(words[0] ?? '');
  const sub = words.find((word, i) => i > 0 && !word.startsWith('-')) ?? '';
  return INSTALLS.some(([programs, subcommands]) => programs.test(program) && subcommands.test(sub));
}

/** Why `role` may not run `argv`, or null when it may. */
export function commandRefusal(policy: Policy, role: string, argv: readonly string[]): string | null {
  const command = argv.join(' ');
  if (isInstallCommand(argv)) {
    return policy.dependencies.install
      ? `"${command}" installs dependencies; ${policy.source} lets them come only from the project's manifest, installed by the installDependencies step before the tests (dependencies.install: true)`
      : `"${command}" installs dependencies, and ${policy.source} does not allow installing them (dependencies.install: false)`;
  }
  const rules = rulesOf(policy, role);
  const allowed = rules.run.some((entry) => {
    const words = entry.split(/\s+/);
    return words.length <= argv.length && words.every((word, i) => word === argv[i]);
  });
  if (allowed) return null;
  return `${policy.roles[role] ? role : `${role} (under otherRoles)`} may not run "${command}": ${policy.source} allows ${rules.run.length > 0 ? `only commands starting with: ${rules.run.join('; ')}` : 'no commands'}`;
}
