/**
 * `sopworks approve <project> [--reject "feedback"]`: decide on what a run stopped with
 * `awaiting-approval` is waiting for; `sopworks resume` then continues with the decision.
 */
import path from 'node:path';
import { z } from 'zod';
import { MessageBoard } from '../board/message-board.ts';
import { clearPending, readPending } from '../approvals/approval-desk.ts';
import { acquireRunLock } from '../company/run-lock.ts';
import { readRunRecord } from '../company/run-record.ts';
import { SopworksError } from '../errors.ts';
import { STATE_DIR } from '../workspace/workspace.ts';
import type { Output } from './output.ts';
import { parseOptions } from './parse-options.ts';

const ApproveOptions = z.object({ reject: z.string().trim().min(1, 'give the feedback the role should act on').optional() });

export async function approveCommand(project: string, rawOptions: unknown, io: Output): Promise<number> {
  const options = parseOptions(ApproveOptions, rawOptions);
  const projectDir = path.resolve(project);
  const stateDir = path.join(projectDir, STATE_DIR);
  await readRunRecord(stateDir);
  const lock = await acquireRunLock(stateDir);
  try {
    const pending = await readPending(stateDir);
    if (pending.length === 0) {
      throw new SopworksError('USAGE', `Nothing in ${projectDir} is waiting for approval.`, {
        hint: 'A run stops with outcome awaiting-approval when it is; `sopworks status` shows outcomes.',
      });
    }
    const { board } = await MessageBoard.open(path.join(stateDir, 'board.jsonl'));
    try {
      for (const request of pending) {
        await board.post({
          type: 'Approval',
          from: 'client',
          to: request.role,
          payload: { role: request.role, gate: request.gate, key: request.key, round: request.round, approved: !options.reject, feedback: options.reject ?? null },
        });
        io.out(`${options.reject ? 'Rejected' : 'Approved'} the ${request.gate}${request.key ? ` ${request.key}` : ''} of ${request.role}.`);
      }
    } finally {
      await board.close();
    }
    await clearPending(stateDir);
    io.out(`Continue with: sopworks resume ${path.relative(process.cwd(), projectDir) || projectDir}`);
    return 0;
  } finally {
    await lock.release();
  }
}
