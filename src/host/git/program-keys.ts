/**
 * Which configuration keys make git run a program, and the value that keeps it from running one —
 * matched as a class, not as a list of names: a key is judged by its variable (the part after the last
 * dot, lower-cased as git lists it) and its section, so a key git adds in a later version, or a tool's
 * own (`lfs.customtransfer.<name>.path`, `hook.<name>.command`), is caught by the same rule. Every key
 * of a class found anywhere git reads configuration is overridden by name (git-hardening.ts); the
 * tamper check names the same keys (tamper-check.ts), so the two cannot drift.
 *
 * Neutral values are chosen so that git accepts them and runs nothing: `false` where git expects a
 * program (it would run /bin/false, which git itself does not name from the repository), an empty value
 * where an empty value turns the feature off (a credential helper list, a filter), `cat` for a pager.
 */

export interface ProgramKeyClass {
  /** What kind of program the key names, for a person. */
  kind: string;
  test: (section: string, variable: string) => boolean;
  /** The value that keeps it from running anything. */
  neutral: string;
}

const ends =
  (...suffixes: string[]) =>
  (_section: string, variable: string) =>
    suffixes.some((s) => variable.endsWith(s));
const named =
  (section: string, ...variables: string[]) =>
  (s: string, v: string) =>
    s === section && variables.includes(v);

/** In order: the first class a key matches decides. */
export const PROGRAM_KEY_CLASSES: readonly ProgramKeyClass[] = [
  { kind: 'an alias (a `!` alias runs a shell)', test: (s) => s === 'alias', neutral: '' },
  { kind: "a command's pager", test: (s) => s === 'pager', neutral: 'false' },
  { kind: 'the pager', test: named('core', 'pager'), neutral: 'cat' },
  { kind: 'a signature program', test: ends('program'), neutral: 'false' },
  { kind: 'signatures shown (which runs the signature program)', test: named('log', 'showsignature'), neutral: 'false' },
  { kind: 'a command', test: ends('command', 'cmd'), neutral: 'false' },
  { kind: 'a credential helper', test: ends('helper'), neutral: '' },
  { kind: 'a filter', test: (s, v) => s === 'filter' && ['clean', 'smudge', 'process'].includes(v), neutral: '' },
  { kind: 'a textconv', test: ends('textconv'), neutral: 'false' },
  { kind: 'a merge driver', test: named('merge', 'driver'), neutral: 'false' },
  { kind: 'an external diff', test: named('diff', 'external'), neutral: '' },
  { kind: 'an editor', test: ends('editor'), neutral: 'true' },
  { kind: 'a password prompt', test: ends('askpass'), neutral: 'false' },
  { kind: 'a file-system monitor', test: named('core', 'fsmonitor'), neutral: 'false' },
  { kind: 'a hooks folder', test: named('core', 'hookspath'), neutral: '/dev/null' },
  { kind: 'a hook', test: (s, v) => s === 'hook' || v.endsWith('hook'), neutral: '' },
  { kind: 'a proxy program', test: named('core', 'gitproxy'), neutral: '' },
  { kind: 'a diff filter', test: named('interactive', 'difffilter'), neutral: 'cat' },
  { kind: "a tool's program", test: (s, v) => TOOL_SECTIONS.has(s) && (v === 'path' || v === 'httpd'), neutral: 'false' },
  { kind: "a remote's program", test: (s, v) => s === 'remote' && ['uploadpack', 'receivepack', 'vcs'].includes(v), neutral: '' },
  { kind: "a submodule's update command", test: named('submodule', 'update'), neutral: 'none' },
  { kind: 'a mail program', test: named('sendemail', 'smtpserver'), neutral: '' },
  { kind: 'a protocol allowed', test: (s, v) => s === 'protocol' && v === 'allow', neutral: 'never' },
];

/** Sections whose `path` names a program (a diff or merge tool, a browser, a man viewer, an LFS transfer agent). */
const TOOL_SECTIONS = new Set(['difftool', 'mergetool', 'browser', 'man', 'lfs', 'instaweb']);
/** Sections of booleans only, whatever their names end with (`advice.waitingForEditor`, `color.pager`). */
const NOT_PROGRAMS = new Set(['advice', 'color', 'include', 'includeif', '']);

/** A key's section and variable, as git lists it (`section.sub.section.variable`, section and variable lower-cased). */
export function splitKey(key: string): { section: string; variable: string } {
  const lower = key.toLowerCase();
  return { section: lower.slice(0, Math.max(lower.indexOf('.'), 0)), variable: lower.slice(lower.lastIndexOf('.') + 1) };
}

/** The class of a key that names a program, or null. */
export function programKeyClass(key: string): ProgramKeyClass | null {
  const { section, variable } = splitKey(key);
  if (NOT_PROGRAMS.has(section)) return null;
  return PROGRAM_KEY_CLASSES.find((c) => c.test(section, variable)) ?? null;
}
