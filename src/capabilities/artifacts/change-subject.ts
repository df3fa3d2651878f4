/**
 * The subject of a change run's commit of a file: what its task says it does — the description's first
 * sentence, or its first clause when that is too long for a subject, never "change <path>" — and for a
 * file changed again after a test round (or one only a bug report named), the problem the bug report
 * named in it. Pure.
 */
import type * as S from '../../documents/index.ts';
import type { BoardReader } from '../../engine/board/index.ts';
import { MAX_SUBJECT } from '../../ground/text/index.ts';

/**
 * A change run's subject for a file (null elsewhere): what its task says it does — the description's
 * first sentence, not "change <path>" — and for a file changed again after a test round, the problem
 * the bug report named in it.
 */
export function changeSubject(file: string, fixed: boolean, board: BoardReader): string | null {
  const graph = board.latest<{ tasks: { file: string; description: string }[] }>('ChangeTaskGraph')?.payload;
  if (!graph) return null;
  const task = graph.tasks.find((t) => t.file === file);
  // A file changed again after a round, or one only a bug report named.
  if (fixed || !task) {
    const problem = board.latest<S.BugReport>('BugReport')?.payload.files.find((f) => f.path === file)?.problem;
    return problem ? `Fix ${file}: ${firstSentence(problem)}` : `Fix ${file}`;
  }
  return firstSentence(task.description);
}

/**
 * A text's first sentence, without its full stop — and when that is longer than a subject, its first
 * clause (to a comma, semicolon, colon or dash) if that says enough: a subject that ends where a thought
 * does, not at the 72nd character.
 */
function firstSentence(text: string): string {
  const sentence = (text.split(/(?<=[.!?])\s/)[0] ?? text).replace(/\.$/, '').trim() || text;
  if (sentence.length <= MAX_SUBJECT) return sentence;
  const clause = sentence.slice(0, clauseEnd(sentence));
  return clause.length >= 24 && clause.length <= MAX_SUBJECT ? clause : sentence;
}

/** Where a sentence's first clause ends: a comma, semicolon, colon or dash outside brackets and quotes (its length when none). */
function clauseEnd(sentence: string): number {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < sentence.length; i++) {
    const char = sentence[i]!;
    if (char === '"' || char === '`') quoted = !quoted;
    else if (!quoted && '([{'.includes(char)) depth++;
    else if (!quoted && ')]}'.includes(char)) depth = Math.max(0, depth - 1);
    else if (!quoted && depth === 0 && i >= 24 && (/[,;:]/.test(char) || sentence.startsWith(' — ', i)) && /\s/.test(sentence[i + 1] ?? ' ')) return i;
  }
  return sentence.length;
}
