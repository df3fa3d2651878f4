/**
 * The subject of a change run's commit of a file, as a maintainer would write it: a conventional type
 * (`feat`, `docs` for a document a user reads, `fix` after a test round), what changed — the change
 * request's title, never a task's text, which is instructions to the Engineer ("After the defuArrayFn
 * export, insert …") — and the file: `feat: Add defuArrayReplace (lib/defu.ts)`. A file changed again
 * after a round (or one only a bug report named) says the problem its bug report named, when that reads
 * as one. The file is kept whole; the title is shortened to fit the subject. Pure.
 */
import type * as S from '../../documents/index.ts';
import type { BoardReader } from '../../engine/board/index.ts';
import { MAX_SUBJECT, oneLine } from '../../ground/text/index.ts';

/** A document a user reads, committed as `docs:`. */
const DOCUMENT = /\.(md|mdx|markdown|rst|adoc|txt)$/i;
/** A shorter problem says too little to name a fix. */
const MIN_PROBLEM = 12;

/** A change run's subject for a file (null outside a change run). */
export function changeSubject(file: string, fixed: boolean, board: BoardReader): string | null {
  const graph = board.latest<{ tasks: { file: string }[] }>('ChangeTaskGraph')?.payload;
  if (!graph) return null;
  const title = board.latest<{ title: string }>('ChangeRequest')?.payload.title ?? 'the change';
  const known = graph.tasks.some((t) => t.file === file);
  // A file changed again after a round, or one only a bug report named.
  if (fixed || !known) {
    const problem = board.latest<S.BugReport>('BugReport')?.payload.files.find((f) => f.path === file)?.problem;
    return subject('fix', (problem && firstSentence(problem)) || title, file);
  }
  return subject(DOCUMENT.test(file) ? 'docs' : 'feat', title, file);
}

/** The subject of a change's tests: `test:` and the change request's title. */
export function changeTestsSubject(board: BoardReader): string | null {
  const title = board.latest<{ title: string }>('ChangeRequest')?.payload.title;
  return title ? subject('test', title, null) : null;
}

/** `type: what (file)`, what shortened at a word so the whole fits a subject with the file whole. */
function subject(type: string, what: string, file: string | null): string {
  const tail = file ? ` (${oneLine(file)})` : '';
  const room = Math.max(16, MAX_SUBJECT - type.length - 2 - tail.length);
  return `${type}: ${shorten(oneLine(what), room)}${tail}`;
}

function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const room = chars.slice(0, max - 1).join('');
  const space = room.lastIndexOf(' ');
  return `${(space >= max / 2 ? room.slice(0, space) : room).replace(/[\s,;:.-]+$/u, '')}…`;
}

/** A problem's first sentence, of its first line, when it says enough to name a fix; else null. */
function firstSentence(text: string): string | null {
  const line = (text.trim().split('\n')[0] ?? '').trim();
  const sentence = (line.split(/(?<=[^\d\s][.!?])\s/)[0] ?? line).replace(/\.$/, '').trim();
  return sentence.length >= MIN_PROBLEM ? sentence : null;
}
