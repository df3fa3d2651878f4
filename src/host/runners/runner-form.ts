/**
 * What a command means in terms of a JavaScript project's own tools, read from its words alone: a runner
 * of the project's installed binaries (`npx vitest run`, `npm exec -- jest`, `pnpm exec mocha`, `yarn
 * vitest`, `pnpm vitest`) or a runner of one of its package.json scripts (`npm run test:unit`, `npm test`,
 * `pnpm test:unit`, `yarn run lint`); null for anything else — and for a form that fetches (`npx -p pkg`,
 * `pnpm dlx`, `yarn dlx`). `pnpm X` and `yarn X` run the script X when the project has one, else its
 * binary X, as pnpm and yarn themselves do. Pure.
 */
import path from 'node:path';

/** `workspace`: the package of a monorepo whose script it runs (`npm test -w packages/a`, `pnpm --filter @x/a test`, `yarn workspace @x/a test`). */
export type RunnerForm = { kind: 'bin'; bin: string; args: string[] } | { kind: 'script'; script: string; args: string[]; workspace?: string };

/** npx's options that take no value and fetch nothing (`--no-install`, `-y`); any other option is not a local form. */
const NPX_FLAGS = /^(--no-install|--no|--offline|--prefer-offline|-y|--yes|-q|--quiet|--silent)$/;
/** pnpm's and yarn's own commands: `pnpm install` is not a script named install. */
const PNPM_COMMANDS = new Set([
  'add',
  'install',
  'i',
  'update',
  'up',
  'remove',
  'rm',
  'link',
  'unlink',
  'import',
  'rebuild',
  'prune',
  'fetch',
  'dlx',
  'create',
  'publish',
  'pack',
  'store',
  'env',
  'setup',
  'init',
  'outdated',
  'audit',
  'list',
  'ls',
  'why',
  'patch',
  'deploy',
  'config',
  'licenses',
]);
const YARN_COMMANDS = new Set([
  'add',
  'install',
  'remove',
  'up',
  'upgrade',
  'dlx',
  'create',
  'init',
  'link',
  'unlink',
  'pack',
  'npm',
  'plugin',
  'set',
  'config',
  'cache',
  'workspaces',
  'workspace',
  'info',
  'why',
  'global',
  'publish',
  'patch',
  'rebuild',
  'constraints',
  'version',
  'import',
  'list',
  'outdated',
  'audit',
]);

export function runnerForm(argv: readonly string[], scripts: readonly string[] = []): RunnerForm | null {
  const inWorkspace = workspaceForm(argv);
  if (inWorkspace !== undefined) return inWorkspace;
  const [program = '', ...rest] = argv;
  const name = path.basename(program);
  const script = (script: string | undefined, args: string[]): RunnerForm | null => (script ? { kind: 'script', script, args } : null);
  const bin = (words: string[]): RunnerForm | null => (words[0] && !words[0].startsWith('-') ? { kind: 'bin', bin: words[0], args: words.slice(1) } : null);
  const either = (words: string[]): RunnerForm | null => (words[0] && scripts.includes(words[0]) ? script(words[0], words.slice(1)) : bin(words));
  if (name === 'npx') {
    const flags = rest.findIndex((w) => !w.startsWith('-'));
    if (flags === -1 || !rest.slice(0, flags).every((flag) => NPX_FLAGS.test(flag))) return null;
    return bin(rest.slice(flags));
  }
  if (name === 'npm') {
    if (rest[0] === 'exec' || rest[0] === 'x') return bin(withoutDashes(rest.slice(1)));
    if (rest[0] === 'run' || rest[0] === 'run-script') return script(rest[1], withoutDashes(rest.slice(2)));
    if (rest[0] === 'test' || rest[0] === 't') return script('test', withoutDashes(rest.slice(1)));
    return null;
  }
  if (name === 'pnpm') {
    if (rest[0] === 'exec') return bin(withoutDashes(rest.slice(1)));
    if (rest[0] === 'run' || rest[0] === 'run-script') return script(rest[1], withoutDashes(rest.slice(2)));
    if (rest[0] === 'test' || rest[0] === 't') return script('test', withoutDashes(rest.slice(1)));
    return rest[0] && !PNPM_COMMANDS.has(rest[0]) ? either(rest) : null;
  }
  if (name === 'yarn') {
    if (rest[0] === 'exec') return bin(withoutDashes(rest.slice(1)));
    if (rest[0] === 'run') return either(withoutDashes(rest.slice(1)));
    if (rest[0] === 'test') return script('test', withoutDashes(rest.slice(1)));
    return rest[0] && !YARN_COMMANDS.has(rest[0]) ? either(rest) : null;
  }
  return null;
}

const withoutDashes = (words: string[]): string[] => (words[0] === '--' ? words.slice(1) : words);

/** npm's, pnpm's and yarn's options that choose the package a script runs in, each followed by its package. */
const WORKSPACE_OPTIONS: Record<string, RegExp> = { npm: /^(-w|--workspace|--prefix)$/, pnpm: /^(-F|--filter|-C|--dir)$/ };

/**
 * A script run in one package of a monorepo, the package chosen before or after the script's name
 * (`npm test -w packages/a`, `npm run test --prefix packages/a`, `pnpm --filter @x/a test`, `pnpm -C
 * packages/a run test`, `yarn workspace @x/a test`); null for such a form this cannot read as one script
 * in one package; undefined when the command chooses no package.
 */
function workspaceForm(argv: readonly string[]): RunnerForm | null | undefined {
  const [program = '', ...rest] = argv;
  const name = path.basename(program);
  if (name === 'yarn' && rest[0] === 'workspace') {
    const [workspace, ...command] = rest.slice(1);
    const form = workspace ? runnerForm(['yarn', ...command]) : null;
    return form?.kind === 'script' && !form.workspace ? { ...form, workspace } : null;
  }
  const option = WORKSPACE_OPTIONS[name];
  if (!option) return undefined;
  const at = rest.findIndex((word) => option.test(word.replace(/=.*$/, '')));
  if (at === -1) return undefined;
  const word = rest[at]!;
  const workspace = word.includes('=') ? word.slice(word.indexOf('=') + 1) : rest[at + 1];
  const command = [...rest.slice(0, at), ...rest.slice(at + (word.includes('=') ? 1 : 2))];
  // A second package, or a glob of them, is not one package's script.
  if (!workspace || command.some((w) => option.test(w.replace(/=.*$/, ''))) || /[*{}]/.test(workspace)) return null;
  const form = runnerForm([program, ...command]);
  if (form?.kind !== 'script') return null;
  return { ...form, workspace: workspace.replace(/^\.\//, '').replace(/\/+$/, '') };
}
