/** The actions and guards of a change run: queue its task graph's files, ask what the current task does, and judge its tests against the base's. */
import { z } from 'zod';
import * as C from '../../documents/change-schemas.ts';
import type { TestReport } from '../../documents/schemas.ts';
import { topologicalOrder } from '../../documents/task-graph.ts';
import { defineAction, defineGuard } from '../../engine/steps/step.ts';
import { currentChangeTask } from './change-views.ts';

export const queueChangeTasks = defineAction({
  description: 'Queue every file of the latest ChangeTaskGraph, in dependency order.',
  params: z.object({}).strict(),
  update: (_, _params, board) => {
    const graph = board.latest<C.ChangeTaskGraph>('ChangeTaskGraph')?.payload;
    return { queue: graph ? topologicalOrder(graph) : [], done: [], current: null };
  },
});

export const taskOp = defineGuard({
  description: "The current file's change task is of this kind (modify, add, delete, rename).",
  params: z.object({ op: C.ChangeOp }).strict(),
  test: ({ context }, params, board) => currentChangeTask(board, context.current).op === params.op,
});

export const noNewFailures = defineGuard({
  description:
    'The test report in a slot (default testReport) passed, or every test that failed also failed on the base (BaselineTests): nothing the change broke.',
  params: z.object({ slot: z.string().min(1).default('testReport') }).strict(),
  test: ({ context }, params, board) => {
    const report = context.slots[params.slot] as TestReport | undefined;
    if (!report) return false;
    if (report.passed) return true;
    const base = board.latest<C.BaselineTests>('BaselineTests')?.payload;
    if (!base?.ran || base.passed || report.timedOut || report.failures.length === 0) return false;
    const before = new Set(base.failures.map((f) => f.name));
    return report.failures.every((f) => before.has(f.name)) && (report.counts?.failed ?? Infinity) <= (base.counts?.failed ?? -1);
  },
});
