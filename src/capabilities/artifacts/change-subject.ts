/**
 * The subject of a change run's commit of a file: what its task says it does — the description's first
 * sentence, or its first clause when that is too long for a subject — never "change <path>". A task
 * written as instructions ("1. In interface X, after `strict`, add:") says no such thing: its subject is
 * the file and the change request's title. A file changed again after a test round (or one only a bug
 * report named) says the problem the bug report named in it. Pure.
 */
import type * as S from '../../documents/index.ts';
import type { BoardReader } from '../../engine/board/index.ts';
import { MAX_SUBJECT } from '../../ground/text/index.ts';

/** A shorter sentence or clause says too little to be a subject ("1", "Edit it"). */
const MIN_SUBJECT = 12;
/** Words a locating phrase starts with ("In interface X", "After the strict bullet"): where, not what. */
const LOCATING = /^(in|inside|after|before|at|on|under|above|below|within|near|next|from|for|when|if|where)\b/i;

/**
 * A change run's subject for a file (null elsewhere): what its task says it does, and for a file
 * changed again after a test round, the problem the bug report named in it.
 */
export function changeSubject(file: string, fixed: boolean, board: BoardReader): string | null {
  const graph = board.latest<{ tasks: { file: string; description: string }[] }>('ChangeTaskGraph')?.payload;
  if (!graph) return null;
  const task = graph.tasks.find((t) => t.file === file);
  // A file changed again after a round, or one only a bug report named.
  if (fixed || !task) {
    const problem = board.latest<S.BugReport>('BugReport')?.payload.files.find((f) => f.path === file)?.problem;
    const said = problem ? summaryOf(problem) : null;
    return said ? `Fix ${file}: ${said}` : `Fix ${file}`;
  }
  const title = board.latest<{ title: string }>('ChangeRequest')?.payload.title;
  return summaryOf(task.description) ?? (title ? `${file}: ${title}` : `Change ${file}`);
}

/**
 * A text's first sentence (of its first line, a list's number or bullet left out), without its full
 * stop — or, when that is longer than a subject, its first clause (to a comma, semicolon, colon or
 * dash); null when neither says what is done: too short, a locating phrase, or a lead-in to what follows.
 */
function summaryOf(text: string): string | null {
  const line = (text.trim().split('\n')[0] ?? '').replace(/^\s*(?:\d+[.)]|[-*•])\s+/, '').trim();
  const sentence = (line.split(/(?<=[^\d\s][.!?])\s/)[0] ?? line).replace(/\.$/, '').trim();
  if (saysWhat(sentence)) return sentence;
  if (sentence.length <= MAX_SUBJECT) return null;
  const clause = sentence.slice(0, clauseEnd(sentence)).trim();
  return saysWhat(clause) ? clause : null;
}

/** Whether a sentence or clause can be a subject: of a subject's length, three words or more outside brackets (not a call's name), neither a locating phrase nor a lead-in. */
const saysWhat = (candidate: string): boolean =>
  candidate.length >= MIN_SUBJECT &&
  candidate.length <= MAX_SUBJECT &&
  candidate
    .replace(/\([^)]*\)/g, ' ')
    .trim()
    .split(/\s+/).length >= 3 &&
  !candidate.endsWith(':') &&
  !LOCATING.test(candidate);

/** Where a sentence's first clause ends: a comma, semicolon, colon or dash outside brackets and quotes (its length when none). */
function clauseEnd(sentence: string): number {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < sentence.length; i++) {
    const char = sentence[i]!;
    if (char === '"' || char === '`') quoted = !quoted;
    else if (!quoted && '([{'.includes(char)) depth++;
    else if (!quoted && ')]}'.includes(char)) depth = Math.max(0, depth - 1);
    else if (!quoted && depth === 0 && (/[,;:]/.test(char) || sentence.startsWith(' — ', i)) && /\s/.test(sentence[i + 1] ?? ' ')) return i;
  }
  return sentence.length;
}
