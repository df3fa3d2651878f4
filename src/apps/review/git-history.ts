/**
 * The generated repository's history, read with git: one commit per artifact, authored by its role,
 * with a `Sopworks-Message:` trailer naming the board message it came from.
 */

import { SopworksError } from '../../ground/errors.ts';
import { git } from '../../host/git/index.ts';

export interface Commit {
  hash: string;
  author: string;
  email: string;
  date: string;
  subject: string;
  /** The board message the commit came from (its trailer), or null for the repository's first commit. */
  messageId: string | null;
  files: string[];
}

const RECORD = '\x1e';
const FIELD = '\x1f';
const TRAILER = /^Sopworks-Message:\s*(msg-\d+)\s*$/m;
/** A diff bigger than this is cut: the viewer shows files the size of generated code, not data dumps. */
export const MAX_DIFF_CHARS = 1_000_000;

/** Oldest first. A repository without commits yet (a run just starting) has an empty history. */
export async function readCommits(dir: string): Promise<Commit[]> {
  // git looks in `dir` only (git-process.ts): a run whose repository is not made yet has no history,
  // not the history of a repository around it.
  const hasHead = await git(dir, ['rev-parse', '--verify', '--quiet', 'HEAD']).then(
    ({ stdout }) => stdout.trim() !== '',
    () => false,
  );
  if (!hasHead) return [];
  const { stdout: out } = await git(dir, [
    'log',
    '--reverse',
    '--no-color',
    `--format=${RECORD}%H${FIELD}%an${FIELD}%ae${FIELD}%aI${FIELD}%s${FIELD}%b${FIELD}`,
    '--name-only',
  ]);
  return out
    .split(RECORD)
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const [hash = '', author = '', email = '', date = '', subject = '', body = '', names = ''] = chunk.split(FIELD);
      return {
        hash,
        author,
        email,
        date,
        subject,
        messageId: TRAILER.exec(body)?.[1] ?? null,
        files: names
          .split('\n')
          .map((n) => n.trim())
          .filter(Boolean),
      };
    });
}

/**
 * The patch of one commit. `hash` must be one of the repository's commits (the caller checks it
 * against readCommits); external diff drivers and textconv filters are off, so reading a repository
 * never runs a program its config names.
 */
export async function readCommitDiff(dir: string, hash: string): Promise<string> {
  if (!/^[0-9a-f]{40}$/.test(hash)) {
    throw new SopworksError('USAGE', `"${hash}" is not a full commit hash.`, { hint: "Pick a commit from the run's history." });
  }
  const { stdout: patch } = await git(dir, ['show', '--no-color', '--no-ext-diff', '--no-textconv', '--format=', '--patch', '-M', hash]);
  return patch.length > MAX_DIFF_CHARS
    ? `${patch.slice(0, MAX_DIFF_CHARS)}\n… (diff cut at ${MAX_DIFF_CHARS} characters; see it with git show ${hash})\n`
    : patch;
}
