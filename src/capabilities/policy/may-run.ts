/**
 * Whether a role may run a command in the sandbox — pure. The command must start with the words of
 * one of the role's `run` entries — or, where the role may run the repository's own tools
 * (`runInstalled`), be a runner of its package.json scripts or of its installed binaries (`npx vitest
 * run`, src/host/runners/) — and must not install dependencies: those come only from the project's
 * manifest, in a step of their own, when the policy allows it (src/host/install/install-project.ts). A
 * refusal names the forms that are allowed, the repository's own declared commands first.
 */
import path from 'node:path';
import { type ProjectRunners, runnerForm, runnersFirst, someNames, workspaceOf } from '../../host/runners/index.ts';
import { rulesOf } from './may-write.ts';
import type { Policy, RolePolicy } from './policy-file.ts';

/** What a command is judged against besides the policy: the repository's tools and the commands it declares (its map's). */
export interface RunContext {
  runners?: ProjectRunners;
  declared?: readonly { argv: readonly string[]; source: string }[];
}

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

/** Runners that make their own environments and install into them at test time. */
const ENVIRONMENT_MAKERS = /^(tox|nox|hatch|pipenv|poetry|pdm|uvx|pipx)$/;

export function isInstallCommand(argv: readonly string[]): boolean {
  const words = [...argv];
  // `python -m pip install …` is pip.
  if (/^python[\d.]*$/.test(path.basename(words[0] ?? '')) && words[1] === '-m' && words[2]) words.splice(0, 2);
  const program = path.basename(words[0] ?? '');
  const operands = words.filter((word, i) => i > 0 && !word.startsWith('-'));
  const sub = operands[0] ?? '';
  // `go run example.com/x@v1` fetches that module; `go run .` builds the project's own program.
  if (program === 'go' && sub === 'run' && operands[1]?.includes('@')) return true;
  return INSTALLS.some(([programs, subcommands]) => programs.test(program) && subcommands.test(sub));
}

/**
 * What `role` may run, in words for a prompt: the forms a refusal names (allowedForms, from the same lists
 * and context commandRefusal reads), and that nothing installs. Unsatisfiable when the role may run nothing.
 */
export function runRule(policy: Policy, role: string, context: RunContext = {}): { text: string; satisfiable: boolean } {
  const rules = rulesOf(policy, role);
  const satisfiable = rules.run.length > 0 || rules.runInstalled === true;
  if (!satisfiable) return { text: `${role} may run no command`, satisfiable };
  return {
    text: `${role} runs it as an argv array, no shell, and never one that installs packages (dependencies come from the manifest, installed before the tests). ${allowedForms(role, rules, context)}`,
    satisfiable,
  };
}

/** Why `role` may not run `argv`, or null when it may: said as "the policy", never by its file's path (see writeRefusal). */
export function commandRefusal(policy: Policy, role: string, argv: readonly string[], context: RunContext = {}): string | null {
  const command = argv.join(' ');
  const rules = rulesOf(policy, role);
  const own = ownTool(rules, argv, context.runners);
  if (own === 'allowed') return null;
  const allowed = allowedForms(role, rules, context);
  if (own) return `${own}. ${allowed}`;
  if (isInstallCommand(argv)) {
    return policy.dependencies.install
      ? `"${command}" installs dependencies; the policy lets them come only from the project's manifest, installed by the installDependencies step before the tests (dependencies.install: true). ${allowed}`
      : `"${command}" installs dependencies, and the policy does not allow installing them (dependencies.install: false). ${allowed}`;
  }
  if (rules.run.some((entry) => startsWith(argv, entry))) return null;
  const maker = ENVIRONMENT_MAKERS.test(path.basename(argv[0] ?? ''));
  const whose = policy.roles[role] ? role : `${role} (under otherRoles)`;
  return `${whose} may not run "${command}"${maker ? `: ${argv[0]} makes its own environments and installs into them at test time` : ''}. ${allowed}`;
}

/** 'allowed' for a runner of the repository's own tools the role may run; why not, for one it may not; null for another command. */
function ownTool(rules: RolePolicy, argv: readonly string[], runners: ProjectRunners | undefined): 'allowed' | string | null {
  const form = runnerForm(argv, runners?.scripts ?? []);
  if (!form || !rules.runInstalled) return null;
  if (form.kind === 'script' && form.workspace !== undefined) {
    const workspace = runners ? workspaceOf(runners, form.workspace) : null;
    if (!workspace) return `"${argv.join(' ')}" runs a script of "${form.workspace}", which is not a package of this repository`;
    return workspace.scripts.includes(form.script)
      ? 'allowed'
      : `"${argv.join(' ')}" runs the script "${form.script}", which ${workspace.folder}/package.json does not have`;
  }
  if (form.kind === 'script') {
    return runners?.scripts.includes(form.script) ? 'allowed' : `"${argv.join(' ')}" runs the script "${form.script}", which package.json does not have`;
  }
  if (runners?.bins.includes(form.bin)) return 'allowed';
  return `"${argv.join(' ')}" runs "${form.bin}", which no dependency the repository ${runners?.installed ? 'installed' : 'declares'} provides: sopworks fetches nothing at test time`;
}

const startsWith = (argv: readonly string[], entry: string): boolean => {
  const words = entry.split(/\s+/);
  return words.length <= argv.length && words.every((word, i) => word === argv[i]);
};

const listed = (names: readonly string[]): string => (names.length === 0 ? '' : ` (${someNames(names)})`);

/** The forms a role may run, in words: the repository's declared commands it may run, its own tools, and the policy's prefixes. */
function allowedForms(role: string, rules: RolePolicy, context: RunContext): string {
  const mayRun = (argv: readonly string[]) => ownTool(rules, argv, context.runners) === 'allowed' || rules.run.some((entry) => startsWith(argv, entry));
  const declared = (context.declared ?? []).filter((c) => mayRun(c.argv)).map((c) => `\`${c.argv.join(' ')}\` (${c.source})`);
  const parts = [
    declared.length > 0 ? `The repository's own: ${declared.join('; ')}` : null,
    rules.runInstalled
      ? `its tools, nothing fetched: npx <bin> for a binary of its dependencies${listed(runnersFirst(context.runners?.bins ?? []))}, npm run <script> for a package.json script${listed(context.runners?.scripts ?? [])}`
      : null,
    rules.run.length > 0 ? `commands starting with: ${rules.run.join('; ')}` : null,
  ].filter((part): part is string => part !== null);
  // Said to a model: the policy by name, never by a path of this machine.
  if (parts.length === 0) return `The policy lets ${role} run no commands.`;
  return `Allowed by the policy: ${parts.join('; ')}.`;
}
