/**
 * The questions a run waits on, as a person reads them where nobody could ask them (no terminal, a
 * queue, `--json`): each with what its answer decides, then the command that answers them all.
 */
import { cleanLine } from '../ground/terminal-text.ts';

/** A role's round of questions, as approvals.json keeps it. */
export interface OpenQuestions {
  role: string;
  round: number;
  questions: readonly { question: string; why: string | null }[];
}

/** The questions, numbered, and `sopworks answer <shown> "…" "…"` with a placeholder per question. */
export function questionLines(open: readonly OpenQuestions[], shown: string): string[] {
  return open.flatMap((request) => {
    const count = request.questions.length;
    const placeholders = request.questions.map((_, i) => `"<answer ${i + 1}>"`).join(' ');
    return [
      `${request.role} asks ${count === 1 ? 'a question' : `${count} questions`} before it writes:`,
      // A model's text: one line each, never with its control characters.
      ...request.questions.flatMap((q, i) => [`  ${i + 1}. ${cleanLine(q.question)}`, ...(q.why ? [`     (${cleanLine(q.why)})`] : [])]),
      `Answer with: sopworks answer ${shown} ${placeholders}  ("" for no preference)`,
    ];
  });
}
