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
 * Keys with a fixed name are overridden below. Other keys have names chosen by the repository — a
 * driver's, an alias's, a command's pager, a credential helper for one URL, `gpg.<format>.program`:
 * every key defined anywhere git reads configuration (defined-config.ts) that names a program, judged
 * by its class (program-keys.ts), is overridden by its own name, and so is every driver, so an
 * attribute that names one finds nothing to run — whatever the name, whatever the condition of the
 * include that defines it. `log.showSignature` is off (and git-process.ts adds `--no-show-signature`),
 * so a signed commit never makes git run a verifier. sopworks needs git 2.31 or newer, the first to
 * read GIT_CONFIG_COUNT (git-version.ts refuses an older one before it runs anything).
 *
 * The user's global and system configuration are kept: they are the user's own, and they choose things
 * like the default branch name. Only what could execute is overridden — the user's own drivers (Git
 * LFS, say) included, since a repository's attributes choose when they run: LFS files stay pointers.
 */
import path from 'node:path';
import { programKeyClass } from './program-keys.ts';

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
  ['gpg.openpgp.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.ssh.defaultKeyCommand', 'false'],
  ['log.showSignature', 'false'],
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

/** More overrides than this would not fit a process's environment: the repository is refused instead. */
export const MAX_OVERRIDES = 5_000;

/**
 * Every key of `keys` that names a program (program-keys.ts), overridden by name with a value that runs
 * nothing, and each filter, diff and merge driver switched off by name: a filter with no command and
 * not required (the file is taken as it is stored — an LFS file as its pointer); a diff and a merge
 * driver whose program is `false`, so a diff sopworks asks for with `--no-ext-diff --no-textconv` never
 * needs them, and one that did would fail rather than run something.
 */
export function configOverrides(keys: readonly { key: string }[]): [string, string][] {
  const out = new Map<string, string>();
  for (const { key } of keys) {
    const found = programKeyClass(key);
    if (found) out.set(key, found.neutral);
    const driver = DRIVER.exec(key);
    if (!driver) continue;
    const [, kind, name] = driver as unknown as [string, 'filter' | 'diff' | 'merge', string];
    for (const [variable, value] of DRIVER_OFF[kind]) out.set(`${kind}.${name}.${variable}`, value);
  }
  return [...out];
}

const DRIVER = /^(filter|diff|merge)\.(.+)\.[^.]+$/;
const DRIVER_OFF: Record<'filter' | 'diff' | 'merge', [string, string][]> = {
  filter: [
    ['clean', ''],
    ['smudge', ''],
    ['process', ''],
    ['required', 'false'],
  ],
  diff: [
    ['textconv', 'false'],
    ['command', 'false'],
  ],
  merge: [['driver', 'false']],
};

/** Command-line options for git commands that could show a diff: no external diff, no textconv. */
export const NO_DIFF_PROGRAMS = ['--no-ext-diff', '--no-textconv'] as const;

/**
 * The environment for a git process working in `cwd`: the caller's minus GIT_*, plus the hardening and
 * the given overrides (git-process.ts `gitEnv` finds them for the repository in `cwd`: configOverrides).
 */
export function hardenedGitEnv(cwd: string, overrides: readonly (readonly [string, string])[] = [], base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(base).filter(([key]) => !key.startsWith('GIT_')));
  // A project whose repository is not made yet must not be taken for the repository around it.
  env.GIT_CEILING_DIRECTORIES = path.dirname(path.resolve(cwd));
  env.GIT_PAGER = 'cat';
  env.PAGER = 'cat';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_ASKPASS = 'false';
  env.SSH_ASKPASS = 'false';
  env.GIT_EDITOR = 'true';
  const config = [...HARDENED_CONFIG, ...overrides];
  env.GIT_CONFIG_COUNT = String(config.length);
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}
