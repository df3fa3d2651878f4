/**
 * A change run (`sopworks change`) as a reviewer reads it: its diff against its base, file by file —
 * the code, the tests it added, its documents — with the branch, and the commands that review, merge
 * and clean it up. Read with git in the change's work tree (`git diff <base>...HEAD`, no diff program
 * or textconv a repository names); null for a run that is not a change.
 */
import path from 'node:path';
import { ChangeRecord } from '../../capabilities/change/index.ts';
import type { Message } from '../../engine/board/index.ts';
import { shellCommand } from '../../ground/markdown.ts';
import { git, NO_DIFF_PROGRAMS } from '../../host/git/index.ts';
import { MAX_DIFF_CHARS } from './git-history.ts';

export type ChangeFileKind = 'code' | 'test' | 'document';

export interface ChangeFile {
  path: string;
  /** The path before a rename; null otherwise. */
  from: string | null;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  kind: ChangeFileKind;
  /** Lines added and removed; null for a binary file. */
  added: number | null;
  removed: number | null;
  /** The file's part of the patch: its header and hunks. */
  patch: string;
}

export interface ChangeView {
  repo: string;
  branch: string;
  base: string;
  baseName: string;
  /** The change's work tree: the run's folder. */
  worktree: string;
  files: ChangeFile[];
  /** Whether the patch was longer than the viewer shows (MAX_DIFF_CHARS): the review command has it whole. */
  cut: boolean;
  /** What a person types: see the whole diff, merge the branch, remove the work tree and the branch. */
  commands: { review: string; merge: string; cleanUp: string };
  /** Why the diff could not be read, when it could not. */
  problem: string | null;
}

const ORDER: Record<ChangeFileKind, number> = { code: 0, test: 1, document: 2 };

/** A file that only a test runner reads, by the paths runners look in (and the tests QA wrote, from the board). */
const TEST_PATH = /(^|\/)(tests?|__tests__|spec)\/|\.(test|spec)\.[^/]+$|(^|\/)test_[^/]+\.py$|_test\.(py|go)$/;

/** The paths QA's `Tests` messages wrote: the tests the change added or changed. */
const testPathsOf = (messages: readonly Pick<Message, 'type' | 'payload'>[]): Set<string> =>
  new Set(messages.filter((m) => m.type === 'Tests').flatMap((m) => ((m.payload as { files?: { path: string }[] }).files ?? []).map((f) => f.path)));

export async function readChangeDiff(dir: string, info: unknown, messages: readonly Pick<Message, 'type' | 'payload'>[]): Promise<ChangeView | null> {
  const parsed = ChangeRecord.safeParse((info as { change?: unknown } | null)?.change);
  if (!parsed.success) return null;
  const { repo, branch, base, baseName } = parsed.data;
  const view: ChangeView = {
    repo,
    branch,
    base,
    baseName,
    worktree: dir,
    files: [],
    cut: false,
    commands: {
      review: shellCommand(['git', '-C', repo, 'diff', `${base.slice(0, 12)}...${branch}`]),
      merge: shellCommand(['git', '-C', repo, 'merge', branch]),
      cleanUp: `${shellCommand(['git', '-C', repo, 'worktree', 'remove', dir])} && ${shellCommand(['git', '-C', repo, 'branch', '-d', branch])}`,
    },
    problem: null,
  };
  try {
    // Whatever the repository's config says of prefixes and quoting, the patch is read in one shape.
    const diff = ['-c', 'core.quotePath=false', 'diff', ...NO_DIFF_PROGRAMS, '--no-color', '-M', '--src-prefix=a/', '--dst-prefix=b/'];
    const range = `${base}...HEAD`;
    const [numstat, patch] = await Promise.all([git(dir, [...diff, '--numstat', '-z', range]), git(dir, [...diff, '--patch', range])]);
    view.cut = patch.stdout.length > MAX_DIFF_CHARS;
    view.files = changeFiles(numstat.stdout, patch.stdout.slice(0, MAX_DIFF_CHARS), testPathsOf(messages), path.join('docs', 'changes'));
  } catch (error) {
    view.problem = `the diff against ${base.slice(0, 12)} could not be read (${(error as Error).message.split('\n')[0]}); see it with ${view.commands.review}`;
  }
  return view;
}

/** `git diff --numstat -z` and the patch, as one entry per file, code first, then tests, then documents. */
export function changeFiles(numstat: string, patch: string, tests: ReadonlySet<string>, documents: string): ChangeFile[] {
  const patches = patchesByPath(patch);
  const files = numstatEntries(numstat).map(({ path: file, from, added, removed }): ChangeFile => {
    const own = patches.get(file) ?? '';
    const status = from !== null ? 'renamed' : /^new file mode/m.test(own) ? 'added' : /^deleted file mode/m.test(own) ? 'deleted' : 'modified';
    const kind: ChangeFileKind =
      tests.has(file) || TEST_PATH.test(file) ? 'test' : file.startsWith(`${documents}/`) || file === 'README.md' ? 'document' : 'code';
    return { path: file, from, status, kind, added, removed, patch: own };
  });
  return files.sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || a.path.localeCompare(b.path));
}

/** numstat -z: `added\tremoved\tpath\0`, or for a rename `added\tremoved\t\0from\0to\0`; `-` counts for a binary file. */
function numstatEntries(text: string): { path: string; from: string | null; added: number | null; removed: number | null }[] {
  const fields = text.split('\0');
  const entries: { path: string; from: string | null; added: number | null; removed: number | null }[] = [];
  for (let i = 0; i < fields.length; i++) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(fields[i]!);
    if (!match) continue;
    const count = (n: string) => (n === '-' ? null : Number(n));
    if (match[3] === '') {
      entries.push({ from: fields[i + 1] ?? '', path: fields[i + 2] ?? '', added: count(match[1]!), removed: count(match[2]!) });
      i += 2;
    } else entries.push({ path: match[3]!, from: null, added: count(match[1]!), removed: count(match[2]!) });
  }
  return entries;
}

/**
 * The patch cut at each file's `diff --git` line: a hunk's lines always begin with a space, +, - or \,
 * so such a line only ever starts a file. Keyed by the file's path after the change.
 */
function patchesByPath(patch: string): Map<string, string> {
  const byPath = new Map<string, string>();
  for (const part of patch.split(/^(?=diff --git )/m)) {
    if (!part.startsWith('diff --git ')) continue;
    const hunks = part.search(/^@@/m);
    const header = hunks < 0 ? part : part.slice(0, hunks);
    const to = /^\+\+\+ b\/(.*)$/m.exec(header)?.[1] ?? /^rename to (.*)$/m.exec(header)?.[1] ?? /^diff --git a\/.* b\/(.*)$/m.exec(header)?.[1];
    // git ends a ---/+++ name that holds a space with a tab.
    if (to !== undefined) byPath.set(unquote(to.replace(/\t$/, '')), part.trimEnd());
  }
  return byPath;
}

/** A path git quoted ("…" with C escapes, for unusual characters) as it is on disk. */
function unquote(name: string): string {
  if (!name.startsWith('"')) return name;
  try {
    return JSON.parse(name.replace(/\\([0-7]{3})/g, (_, oct: string) => `\\u${Number.parseInt(oct, 8).toString(16).padStart(4, '0')}`)) as string;
  } catch {
    return name;
  }
}
