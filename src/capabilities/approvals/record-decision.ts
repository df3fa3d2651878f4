/**
 * Records a person's decision on everything a stopped run is waiting for: one `Approval` message per
 * pending request, posted on the run's board by the client, then the pending list cleared — the same
 * record whether the decision came from `sopworks approve` or from the review viewer's page. Holds the
 * run's lock while it writes, so it never races a run in progress.
 */
import path from 'node:path';
import { MessageBoard } from '../../engine/board/index.ts';
import { FileRunStore } from '../../engine/run/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { type ApprovalRequest, approvalsOf, type Decision, parseWaiting, questionsOf } from './approval-desk.ts';
import { Approval } from './message-types.ts';

export async function recordDecision(stateDir: string, decision: Decision): Promise<ApprovalRequest[]> {
  const store = FileRunStore.of(path.dirname(stateDir));
  const lock = await store.lock();
  try {
    const waiting = parseWaiting(await store.readWaiting());
    const pending = approvalsOf(waiting);
    if (pending.length === 0) {
      throw new SopworksError('USAGE', `Nothing in ${path.dirname(stateDir)} is waiting for approval.`, {
        hint:
          questionsOf(waiting).length > 0
            ? `It waits for answers to questions: \`sopworks answer ${path.dirname(stateDir)}\` prints them and how to answer; or answer them on its page in the workbench (\`sopworks serve\`), or \`sopworks resume\` it at a terminal.`
            : 'A run stops with outcome awaiting-approval when it is; `sopworks status` shows outcomes.',
      });
    }
    // The board takes only what is posted here: decisions.
    const opened = await store.openBoard();
    const board = MessageBoard.restore(opened.records, opened.log, store.file('board.jsonl'), { types: { Approval } });
    try {
      for (const request of pending) {
        await board.post({
          type: 'Approval',
          from: 'client',
          to: request.role,
          payload: { role: request.role, gate: request.gate, key: request.key, round: request.round, approved: decision.approved, feedback: decision.feedback },
        });
      }
    } finally {
      await board.close();
    }
    // Questions still wait for their answers.
    await store.writeWaiting(questionsOf(waiting));
    return pending;
  } finally {
    await lock.release();
  }
}

/** What a decision was about, in a line: "the prd of product-manager". */
export const describeRequest = (request: ApprovalRequest): string => `the ${request.gate}${request.key ? ` ${request.key}` : ''} of ${request.role}`;

/** What a role's open questions are, in a line: "answers to 2 questions of product-manager". */
export const describeQuestions = (request: { role: string; questions: readonly unknown[] }): string =>
  `answers to ${request.questions.length === 1 ? 'a question' : `${request.questions.length} questions`} of ${request.role}`;
