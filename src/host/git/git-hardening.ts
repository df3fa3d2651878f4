/**
 * The one place that says how sopworks runs git — on a generated repository, and on a repository handed
 * to `sopworks change`. A repository's own configuration and attributes are untrusted: generated code
 * (or whoever handed us the repository) may have planted keys that make git run a program — a hook,
 * `core.fsmonitor`, `core.pager`, a credential helper, an external diff, a filter (`clean`, `smudge`,
 * `process`) or a textconv named by `.gitattributes`, a merge driver, a submodule to fetch. Every git
 * process sopworks starts gets these settings through the environment (`GIT_CONFIG_COUNT`/`KEY_n`/
 * `VALUE_n`, which outrank every configuration file and are inherited by the git processes git itself
 * starts, fast-import's shell and submodules' git included), and the `GIT_*` variables of the caller's
 * environment are dropped, so nothing of sopworks' own shell leaks in.
 *
 * Keys with a fixed name are overridden below. Drivers have names chosen by the repository: every
 * driver defined anywhere git reads configuration (config-drivers.ts) is overridden by its name, so an
 * attribute that names it finds nothing to run — whatever the name, whatever the condition of the
 * include that defines it. sopworks needs git 2.31 or newer, the first to read GIT_CONFIG_COUNT
 * (git-version.ts refuses an older one before it runs anything).
 *
 * The user's global and system configuration are kept: they are the user's own, and they choose things
 * like the default branch name. Only what could execute is overridden — the user's own drivers (Git
 * LFS, say) included, since a repository's attributes choose when they run: LFS files stay pointers.
 */
import path from 'node:path';

/** Keys that would run a program, each forced off. */
export const HARDENED_CONFIG: readonly (readonly [string, string])[] = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.pager', 'cat'],
  ['core.editor', 'true'],
  ['core.sshCommand', 'false'],
  ['core.askPass', 'false'],
  ['core.gitProxy', ''],
  ['credential.helper', ''],
  ['diff.external', ''],
  ['gpg.program', 'false'],
  ['sequence.editor', 'true'],
  ['protocol.allow', 'never'],
  ['uploadpack.packObjectsHook', ''],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  // A submodule is never checked out, updated, or looked into (its own config would define drivers).
  ['submodule.recurse', 'false'],
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
  // No maintenance of the user's repository on the way (`gc --auto` after sopworks' commits).
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
];

/** The drivers defined in the configuration a git process reads (config-drivers.ts). */
export interface DriverNames {
  filter: readonly string[];
  diff: readonly string[];
  merge: readonly string[];
}

const NO_DRIVERS: DriverNames = { filter: [], diff: [], merge: [] };

/**
 * Each named driver switched off: a filter with no command and not required (the file is taken as it
 * is stored — an LFS file as its pointer); a diff driver and a merge driver whose program is `false`,
 * so a diff sopworks asks for with `--no-ext-diff --no-textconv` never needs them, and one that did
 * would fail rather than run something.
 */
export function driverOverrides(drivers: DriverNames): [string, string][] {
  return [
    ...drivers.filter.flatMap((name): [string, string][] => [
      [`filter.${name}.clean`, ''],
      [`filter.${name}.smudge`, ''],
      [`filter.${name}.process`, ''],
      [`filter.${name}.required`, 'false'],
    ]),
    ...drivers.diff.flatMap((name): [string, string][] => [
      [`diff.${name}.textconv`, 'false'],
      [`diff.${name}.command`, 'false'],
    ]),
    ...drivers.merge.map((name): [string, string] => [`merge.${name}.driver`, 'false']),
  ];
}

/** Command-line options for git commands that could show a diff: no external diff, no textconv. */
export const NO_DIFF_PROGRAMS = ['--no-ext-diff', '--no-textconv'] as const;

/**
 * The environment for a git process working in `cwd`: the caller's minus GIT_*, plus the hardening and
 * the given drivers switched off (git-process.ts `gitEnv` finds them for the repository in `cwd`).
 */
export function hardenedGitEnv(cwd: string, drivers: DriverNames = NO_DRIVERS, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(base).filter(([key]) => !key.startsWith('GIT_')));
  // A project whose repository is not made yet must not be taken for the repository around it.
  env.GIT_CEILING_DIRECTORIES = path.dirname(path.resolve(cwd));
  env.GIT_PAGER = 'cat';
  env.PAGER = 'cat';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_ASKPASS = 'false';
  env.SSH_ASKPASS = 'false';
  env.GIT_EDITOR = 'true';
  const config = [...HARDENED_CONFIG, ...driverOverrides(drivers)];
  env.GIT_CONFIG_COUNT = String(config.length);
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}
