/** The actions and guards of a change run: queue its task graph's files, ask what the current task does, and judge its tests against the base's. */
import { z } from 'zod';
import { type BaselineTests, ChangeOp, type ChangeTaskGraph, type TestReport, topologicalOrder } from '../../documents/index.ts';
import { defineAction, defineGuard } from '../../engine/steps/index.ts';
import { currentChangeTask } from './change-views.ts';

export const queueChangeTasks = defineAction({
  description: 'Queue every file of the latest ChangeTaskGraph, in dependency order.',
  params: z.object({}).strict(),
  update: (_, _params, board) => {
    const graph = board.latest<ChangeTaskGraph>('ChangeTaskGraph')?.payload;
    return { queue: graph ? topologicalOrder(graph) : [], done: [], current: null };
  },
});

export const taskOp = defineGuard({
  description: "The current file's change task is of this kind (modify, add, delete, rename).",
  params: z.object({ op: ChangeOp }).strict(),
  test: ({ context }, params, board) => currentChangeTask(board, context.current).op === params.op,
});

export const noNewFailures = defineGuard({
  description:
    'The test report in a slot (default testReport) passed, or its comparison with the base (a compareWithBase step) found nothing that did ' +
    'not fail before: nothing the change broke.',
  params: z.object({ slot: z.string().min(1).default('testReport') }).strict(),
  test: ({ context }, params) => {
    const report = context.slots[params.slot] as TestReport | undefined;
    return report !== undefined && (report.passed || report.vsBase?.newFailures === false);
  },
});

export const baseRunnerStarted = defineGuard({
  description: "The repository's tests could be run on the base (BaselineTests): the test runner started, or there were no tests to run.",
  params: z.object({}).strict(),
  test: (_args, _params, board) => board.latest<BaselineTests>('BaselineTests')?.payload.runner.started ?? false,
});
