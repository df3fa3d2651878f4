/**
 * The one place that says how sopworks runs git on a generated repository. The repository's own
 * configuration is untrusted: generated code (or whoever handed us the project) may have planted keys
 * that make git run a program — a hook, `core.fsmonitor`, `core.pager`, a credential helper, an external
 * diff. Every git process sopworks starts gets these settings through the environment
 * (`GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`, which outrank the repository's config and
 * are inherited by the git processes git itself starts, fast-import's shell included), and the `GIT_*`
 * variables of the caller's environment are dropped, so nothing of sopworks' own shell leaks in.
 *
 * The user's global and system configuration are kept: they are the user's own, and they choose things
 * like the default branch name. Only what could execute is overridden.
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
];

/** Command-line options for git commands that could show a diff: no external diff, no textconv. */
export const NO_DIFF_PROGRAMS = ['--no-ext-diff', '--no-textconv'] as const;

/** The environment for a git process working in `cwd`: the caller's minus GIT_*, plus the hardening. */
export function hardenedGitEnv(cwd: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(base).filter(([key]) => !key.startsWith('GIT_')));
  // A project whose repository is not made yet must not be taken for the repository around it.
  env.GIT_CEILING_DIRECTORIES = path.dirname(path.resolve(cwd));
  env.GIT_PAGER = 'cat';
  env.PAGER = 'cat';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_ASKPASS = 'false';
  env.SSH_ASKPASS = 'false';
  env.GIT_EDITOR = 'true';
  env.GIT_CONFIG_COUNT = String(HARDENED_CONFIG.length);
  HARDENED_CONFIG.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}
