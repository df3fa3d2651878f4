/**
 * `sopworks answer <project> [answer...]`: answers the questions a run stopped with awaiting-approval
 * waits on (`--clarify` where nobody was at a terminal), one answer per question in order ("" for no
 * preference) — the record the page and a terminal make too (recordAnswers); `sopworks resume` then goes
 * on with them. Without answers it prints the questions and the command that answers them.
 */
import path from 'node:path';
import { z } from 'zod';
import { describeQuestions, readOpenQuestions, recordAnswers } from '../../capabilities/approvals/index.ts';
import { STATE_DIR } from '../../capabilities/repository/index.ts';
import { readRunRecord } from '../../company/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { parseRequest, questionLines } from '../../session/index.ts';
import { EXIT, type Output } from './output.ts';

const AnswerArgs = z.object({
  project: z.string().trim().min(1, 'give the folder of a run, e.g. output/<project>'),
  answers: z.array(z.string()),
});

export async function answerCommand(project: unknown, answers: unknown, io: Output): Promise<number> {
  const args = parseRequest(AnswerArgs, { project, answers: answers ?? [] }, 'answer');
  const projectDir = path.resolve(args.project);
  const stateDir = path.join(projectDir, STATE_DIR);
  await readRunRecord(stateDir);
  const shown = path.relative(process.cwd(), projectDir) || projectDir;
  const [open] = await readOpenQuestions(stateDir);
  if (!open) {
    throw new SopworksError('USAGE', `Nothing in ${shown} waits for answers.`, {
      hint: `If they were answered already, \`sopworks resume ${shown}\` goes on with them. \`sopworks status\` shows what a run waits on; \`sopworks approve\` decides on an approval.`,
    });
  }
  if (args.answers.length === 0) {
    for (const line of questionLines([open], shown)) io.out(line);
    return EXIT.awaitingApproval;
  }
  const answered = await recordAnswers(stateDir, { role: open.role, round: open.round, answers: args.answers });
  io.out(`Recorded the ${describeQuestions(answered)}.`);
  const more = await readOpenQuestions(stateDir);
  if (more.length > 0) {
    for (const line of questionLines(more, shown)) io.out(line);
    return EXIT.awaitingApproval;
  }
  io.out(`Continue with: sopworks resume ${shown}`);
  return EXIT.done;
}
