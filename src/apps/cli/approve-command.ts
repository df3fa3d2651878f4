/**
 * `sopworks approve <project> [--reject "feedback"]`: decide on what a run stopped with
 * `awaiting-approval` is waiting for; `sopworks resume` then continues with the decision.
 */
import path from 'node:path';
import { z } from 'zod';
import { describeRequest, recordDecision } from '../../capabilities/approvals/index.ts';
import { STATE_DIR } from '../../capabilities/repository/index.ts';
import { readRunRecord } from '../../company/index.ts';
import { parseRequest } from '../../session/index.ts';
import type { Output } from './output.ts';

const ApproveOptions = z.object({ reject: z.string().trim().min(1, 'give the feedback the role should act on').optional() });

export async function approveCommand(project: string, rawOptions: unknown, io: Output): Promise<number> {
  const options = parseRequest(ApproveOptions, rawOptions, 'approve');
  const projectDir = path.resolve(project);
  const stateDir = path.join(projectDir, STATE_DIR);
  await readRunRecord(stateDir);
  const decided = await recordDecision(stateDir, { approved: !options.reject, feedback: options.reject ?? null });
  for (const request of decided) io.out(`${options.reject ? 'Rejected' : 'Approved'} ${describeRequest(request)}.`);
  io.out(`Continue with: sopworks resume ${path.relative(process.cwd(), projectDir) || projectDir}`);
  return 0;
}
