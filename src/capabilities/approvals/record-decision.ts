/**
 * Records a person's decision on everything a stopped run is waiting for: one `Approval` message per
 * pending request, posted on the run's board by the client, then the pending list cleared — the same
 * record whether the decision came from `sopworks approve` or from the review viewer's page. Holds the
 * run's lock while it writes, so it never races a run in progress.
 */
import path from 'node:path';
import { MessageBoard } from '../../engine/board/message-board.ts';
import { acquireRunLock } from '../../engine/run/run-lock.ts';
import { SopworksError } from '../../ground/errors.ts';
import { clearPending, readPending, type ApprovalRequest, type Decision } from './approval-desk.ts';
import { Approval } from './message-types.ts';

export async function recordDecision(stateDir: string, decision: Decision): Promise<ApprovalRequest[]> {
  const lock = await acquireRunLock(stateDir);
  try {
    const pending = await readPending(stateDir);
    if (pending.length === 0) {
      throw new SopworksError('USAGE', `Nothing in ${path.dirname(stateDir)} is waiting for approval.`, {
        hint: 'A run stops with outcome awaiting-approval when it is; `sopworks status` shows outcomes.',
      });
    }
    // The board takes only what is posted here: decisions.
    const { board } = await MessageBoard.open(path.join(stateDir, 'board.jsonl'), { types: { Approval } });
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
    await clearPending(stateDir);
    return pending;
  } finally {
    await lock.release();
  }
}

/** What a decision was about, in a line: "the prd of product-manager". */
export const describeRequest = (request: ApprovalRequest): string => `the ${request.gate}${request.key ? ` ${request.key}` : ''} of ${request.role}`;
