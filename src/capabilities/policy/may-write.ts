/**
 * Whether a role may write a path under the policy — pure. A path is writable when no `protected`
 * pattern matches it, one of the role's `write` patterns does, and none of its `except` patterns do.
 */
import { Minimatch } from 'minimatch';
import type { Policy, RolePolicy } from './policy-file.ts';

/** The rules a role works under: its own entry, or `otherRoles`. */
export function rulesOf(policy: Policy, role: string): RolePolicy {
  return policy.roles[role] ?? policy.otherRoles;
}

/** A trailing "/" names a whole folder. */
const expand = (glob: string): string => (glob.endsWith('/') ? `${glob}**` : glob);

/**
 * Compiled to a regular expression once per glob: a policy has a handful, checked for every file of
 * every reply and every commit.
 */
const compiled = new Map<string, RegExp | null>();

export function matches(file: string, glob: string): boolean {
  let matcher = compiled.get(glob);
  if (matcher === undefined) {
    matcher = new Minimatch(expand(glob), { dot: true }).makeRe() || null;
    compiled.set(glob, matcher);
  }
  return matcher !== null && matcher.test(file);
}

/** Compiling every glob of the policy, one task each, to run ahead of the first check (a few ms the first time). */
export function policyWarmUpTasks(policy: Policy): (() => void)[] {
  const globs = [...policy.protected, ...[...Object.values(policy.roles), policy.otherRoles].flatMap((rules) => [...rules.write, ...rules.except])];
  return [...new Set(globs)].map((glob) => () => void matches('', glob));
}

/**
 * Why `role` may not write `file` (a normalised project-relative path), or null when it may. Said as
 * "the policy", never by the policy file's path: the reason goes back to a model (a re-ask, a check's
 * problems), and a path of the user's machine is none of its business; a person's message adds the file.
 */
export function writeRefusal(policy: Policy, role: string, file: string): string | null {
  const guarded = policy.protected.find((glob) => matches(file, glob));
  if (guarded) return `"${file}" is protected: the policy lets no role write ${guarded}`;
  const rules = rulesOf(policy, role);
  const whose = policy.roles[role] ? role : `${role} (not named in the policy, so under otherRoles)`;
  if (!rules.write.some((glob) => matches(file, glob))) {
    return `${whose} may not write "${file}": the policy lets it write ${rules.write.length > 0 ? `only ${rules.write.join(', ')}` : 'nothing'}`;
  }
  const excepted = rules.except.find((glob) => matches(file, glob));
  if (excepted) return `${whose} may not write "${file}": the policy excepts ${excepted} from what it may write`;
  return null;
}

/**
 * What `role` may write, in one sentence for a prompt — from the same lists writeRefusal reads, so what a
 * model is told and what it is refused cannot drift apart.
 */
export function writeRule(policy: Policy, role: string): { text: string; satisfiable: boolean } {
  const rules = rulesOf(policy, role);
  const may = rules.write.length === 0 ? 'nothing' : rules.write.includes('**') ? 'any path' : `only ${rules.write.join(', ')}`;
  const except = rules.except.length > 0 ? `, except ${rules.except.join(', ')}` : '';
  const guarded = policy.protected.length > 0 ? `; no role may write ${policy.protected.join(', ')}` : '';
  return {
    text: `${role} may write ${may}${except}${guarded} (paths relative to the project root; a trailing "/" is a whole folder)`,
    satisfiable: rules.write.length > 0,
  };
}

/** The refusals for several paths, one line each (empty when all are allowed). */
export function writeRefusals(policy: Policy, role: string, files: readonly string[]): string[] {
  return files.map((file) => writeRefusal(policy, role, file)).filter((reason): reason is string => reason !== null);
}
