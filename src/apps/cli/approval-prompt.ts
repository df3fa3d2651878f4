/**
 * Asks the person at the terminal: to approve an artifact (shows it, then reads y, or n and a line of
 * feedback), or to answer a role's questions (`--clarify`: each question, then a line each). Nobody
 * when there is no person at the terminal — the run then stops with awaiting-approval.
 */
import readline from 'node:readline/promises';
import pc from 'picocolors';
import type { AnswerPerson, AskPerson } from '../../capabilities/approvals/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { cleanBlock, cleanLine, terminalSafe } from '../../ground/terminal-text.ts';
import { relayCtrlC } from './stop-signals.ts';

/** What a prompt's questions take: the interface, and the signal that ends them at Ctrl-C. */
type Prompt = { rl: readline.Interface; signal: AbortSignal };

/**
 * Reads lines from the terminal for one request; the interface closed after it. Ctrl-C there stops the
 * run as a first Ctrl-C does anywhere and leaves the request unanswered (INTERRUPTED): nothing is
 * recorded, the run stops waiting for it, and `sopworks resume` asks again.
 */
async function withTerminal<T>(ask: (prompt: Prompt) => Promise<T>): Promise<T> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  const left = new AbortController();
  rl.on('SIGINT', () => {
    process.stdout.write('\n');
    relayCtrlC();
    left.abort(new SopworksError('INTERRUPTED', 'left unanswered at Ctrl-C; `sopworks resume` asks again'));
  });
  try {
    return await ask({ rl, signal: left.signal });
  } catch (error) {
    throw left.signal.aborted ? left.signal.reason : error;
  } finally {
    rl.close();
  }
}

function terminalAnswerer(): AnswerPerson {
  return (request) =>
    withTerminal(async ({ rl, signal }) => {
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
        answers.push((await rl.question('> ', { signal })).trim());
      }
      return answers;
    });
}

function terminalApprover(): AskPerson {
  return (request) =>
    withTerminal(async ({ rl, signal }) => {
      // The artifact is a model's text: shown with its layout, never with its control characters.
      process.stdout.write(
        terminalSafe(
          `\n${pc.bold(`— ${request.role} asks for approval of the ${request.gate}${request.key ? ` ${cleanLine(request.key)}` : ''} —`)}\n\n${cleanBlock(request.content)}\n\n`,
        ),
      );
      for (;;) {
        const answer = (await rl.question(`Approve it? ${pc.dim('[y]es / [n]o')} `, { signal })).trim().toLowerCase();
        if (answer === 'y' || answer === 'yes') return { approved: true, feedback: null };
        if (answer === 'n' || answer === 'no') {
          const feedback = (await rl.question(`What should ${request.role} change? `, { signal })).trim();
          return { approved: false, feedback: feedback || null };
        }
      }
    });
}

/**
 * Who is asked at this terminal: decisions, and questions unless the command was given `--yes` (nobody
 * is expected there then: the questions wait for the workbench, or for a resume without it). Nobody
 * without a person at the terminal (`person`: standard input and output both a terminal).
 */
export function terminalPerson(person: boolean, yes: boolean): { askPerson: AskPerson | null; answerPerson: AnswerPerson | null } {
  if (!person) return { askPerson: null, answerPerson: null };
  return { askPerson: terminalApprover(), answerPerson: yes ? null : terminalAnswerer() };
}
