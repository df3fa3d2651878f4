/**
 * Writes commits in git's fast-import format (git-fast-import(1)): one `git fast-import` process makes
 * a whole batch of commits, each with its own tree, author and message — instead of two git processes
 * per commit. Pure: text in, text out.
 */

export interface Identity {
  name: string;
  email: string;
}

export interface StreamCommit {
  /** Path → content (mode 100755 when executable); every other path keeps the content it had in the commit before. */
  files: { path: string; content: string; executable?: boolean }[];
  /** Paths the commit removes (a change run's deleted or renamed files). */
  removed?: string[];
  author: Identity;
  committer: Identity;
  message: string;
}

/**
 * The stream for one commit on `ref`, marked `:mark`. `from` is the parent for the first commit of a
 * stream (fast-import does not read an existing branch's tip by itself), null for the first commit of
 * a new repository, and undefined for later commits of a stream (they follow the one before).
 * A `get-mark` makes git print the new commit's hash on stdout.
 */
export function commitCommand(ref: string, mark: number, commit: StreamCommit, from: string | null | undefined): string {
  const parts = [
    `commit ${ref}\n`,
    `mark :${mark}\n`,
    `author ${identity(commit.author)} now\n`,
    `committer ${identity(commit.committer)} now\n`,
    data(commit.message.endsWith('\n') ? commit.message : `${commit.message}\n`),
    from ? `from ${from}\n` : '',
    ...(commit.removed ?? []).map((file) => `D ${quotePath(file)}\n`),
    ...commit.files.map((file) => `M ${file.executable ? '100755' : '100644'} inline ${quotePath(file.path)}\n${data(file.content)}`),
    '\n',
    `get-mark :${mark}\n`,
  ];
  return parts.join('');
}

/** Ends a stream started with `--done`: without it, git treats the stream as cut off and updates nothing. */
export const END_OF_STREAM = 'done\n';

/** `data <bytes>` and the bytes: the count is in bytes, not characters. */
function data(text: string): string {
  return `data ${Buffer.byteLength(text, 'utf8')}\n${text}\n`;
}

/** A name and address as git accepts them: no angle brackets or line breaks inside. */
function identity(who: Identity): string {
  const clean = (text: string) => text.replace(/[<>\r\n]/g, '').trim();
  return `${clean(who.name) || 'unknown'} <${clean(who.email)}>`;
}

/** C-style quoted, as fast-import reads paths: always quoted, so spaces and leading quotes are safe. */
export function quotePath(filePath: string): string {
  return `"${filePath.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}
