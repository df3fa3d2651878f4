/**
 * Asks the person at the terminal to approve an artifact: shows it, then reads y (approve) or n and a
 * line of feedback (reject). Null when there is no terminal — the run then stops with awaiting-approval.
 */
import readline from 'node:readline/promises';
import pc from 'picocolors';
import type { AskPerson } from '../../capabilities/approvals/approval-desk.ts';
import { cleanBlock, cleanLine, terminalSafe } from '../../ground/terminal-text.ts';

export function terminalApprover(): AskPerson | null {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return null;
  return async (request) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
    try {
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
    } finally {
      rl.close();
    }
  };
}
