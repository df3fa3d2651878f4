/** The actions that fill a role's file queue from the planning artifacts: the task graph's files, or those a bug report names. */
import { z } from 'zod';
import { type BugReport, type TaskGraph, topologicalOrder } from '../../documents/index.ts';
import { defineAction } from '../../engine/steps/index.ts';

export const queueTasks = defineAction({
  description: 'Queue every file of the latest TaskGraph, in dependency order.',
  params: z.object({}).strict(),
  update: (_, _params, board) => {
    const graph = board.latest<TaskGraph>('TaskGraph')?.payload;
    return { queue: graph ? topologicalOrder(graph) : [], done: [], current: null };
  },
});

export const queueBugFiles = defineAction({
  description: 'Queue the files named by the latest BugReport (those in the task graph), in dependency order.',
  params: z.object({}).strict(),
  update: (_, _params, board) => {
    const files = board.latest<BugReport>('BugReport')?.payload.files.map((f) => f.path) ?? [];
    const graph = board.latest<TaskGraph>('TaskGraph')?.payload;
    const order = graph ? topologicalOrder(graph) : files;
    return { queue: order.filter((f) => files.includes(f)), done: [], current: null };
  },
});
