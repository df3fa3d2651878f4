/**
 * Asks the person at the terminal: to approve an artifact (shows it, then reads y, or n and a line of
 * feedback), or to answer a role's questions (`--clarify`: each question, then a line each). Null when
 * there is no terminal — the run then stops with awaiting-approval.
 */
import readline from 'node:readline/promises';
import pc from 'picocolors';
import type { AnswerPerson, AskPerson } from '../../capabilities/approvals/index.ts';
import { cleanBlock, cleanLine, terminalSafe } from '../../ground/terminal-text.ts';

const atTerminal = (): boolean => Boolean(process.stdin.isTTY && process.stdout.isTTY);

/** Reads lines from the terminal for one request; the interface closed after it. */
async function withTerminal<T>(ask: (rl: readline.Interface) => Promise<T>): Promise<T> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await ask(rl);
  } finally {
    rl.close();
  }
}

export function terminalAnswerer(): AnswerPerson | null {
  if (!atTerminal()) return null;
  return (request) =>
    withTerminal(async (rl) => {
      const count = request.questions.length;
      process.stdout.write(
        terminalSafe(
          `\n${pc.bold(`— ${request.role} has ${count === 1 ? 'a question' : `${count} questions`} before it writes —`)} ${pc.dim('(Enter: no preference)')}\n`,
        ),
      );
      const answers: string[] = [];
      for (const [i, q] of request.questions.entries()) {
        // The questions are a model's text: one line each, never with their control characters.
        const why = q.why ? `\n   ${pc.dim(cleanLine(q.why))}` : '';
        process.stdout.write(terminalSafe(`\n${i + 1}. ${cleanLine(q.question)}${why}\n`));
        answers.push((await rl.question('> ')).trim());
      }
      return answers;
    });
}

export function terminalApprover(): AskPerson | null {
  if (!atTerminal()) return null;
  return (request) =>
    withTerminal(async (rl) => {
      // The artifact is a model's text: shown with its layout, never with its control characters.
      process.stdout.write(
        terminalSafe(
          `\n${pc.bold(`— ${request.role} asks for approval of the ${request.gate}${request.key ? ` ${cleanLine(request.key)}` : ''} —`)}\n\n${cleanBlock(request.content)}\n\n`,
        ),
      );
      for (;;) {
        const answer = (await rl.question(`Approve it? ${pc.dim('[y]es / [n]o')} `)).trim().toLowerCase();
        if (answer === 'y' || answer === 'yes') return { approved: true, feedback: null };
        if (answer === 'n' || answer === 'no') {
          const feedback = (await rl.question(`What should ${request.role} change? `)).trim();
          return { approved: false, feedback: feedback || null };
        }
      }
    });
}

/**
 * Who is asked at this terminal: decisions, and questions unless the command was given `--yes` (nobody
 * is expected there then: the questions wait for the workbench, or for a resume without it).
 */
export function terminalPerson(yes: boolean): { askPerson: AskPerson | null; answerPerson: AnswerPerson | null } {
  return { askPerson: terminalApprover(), answerPerson: yes ? null : terminalAnswerer() };
}
