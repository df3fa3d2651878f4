/**
 * Actions a SOP may name: pure updates of the role's context (XState `assign`), each with the schema
 * of its parameters.
 */
import { assign } from 'xstate';
import { z } from 'zod';
import type { BugReport, TaskGraph, TestReport } from '../../documents/schemas.ts';
import { topologicalOrder } from '../../documents/task-graph.ts';
import type { RoleContext } from '../sop/role-context.ts';
import type { RoleServices } from '../sop/services.ts';
import { describeError } from '../../ground/errors.ts';
import { createHash } from 'node:crypto';

const fingerprint = (value: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('hex')
    .slice(0, 16);

export interface VocabularyEntry {
  description: string;
  params: z.ZodType;
}

export const actionParams = {
  receive: { description: 'Remember the received board message as the cause of the work that follows.', params: z.object({}).strict() },
  keep: {
    description: "Store the finished step's output (e.g. a model reply) in a named slot.",
    params: z.object({ slot: z.string().min(1) }).strict(),
  },
  keepFeedback: {
    description:
      "Store a person's rejection (from a failed awaitApproval step) as a review in a slot (default review), so the revise step gets it as its issues.",
    params: z.object({ slot: z.string().min(1).default('review') }).strict(),
  },
  count: { description: 'Add one to a named counter.', params: z.object({ counter: z.string().min(1) }).strict() },
  resetCount: { description: 'Set a named counter back to zero.', params: z.object({ counter: z.string().min(1) }).strict() },
  noteError: { description: "Remember the failed step's error message (visible to templates as `error`).", params: z.object({}).strict() },
  clearError: { description: 'Forget the last noted error.', params: z.object({}).strict() },
  queueTasks: {
    description: 'Queue every file of the latest TaskGraph, in dependency order.',
    params: z.object({}).strict(),
  },
  queueBugFiles: {
    description: 'Queue the files named by the latest BugReport (those in the task graph), in dependency order.',
    params: z.object({}).strict(),
  },
  nextTask: { description: 'Take the next queued file as the current one.', params: z.object({}).strict() },
  finishTask: { description: 'Mark the current file as done.', params: z.object({}).strict() },
  remember: {
    description: "Add a fingerprint of a slot's value to a named history (e.g. each review of a file), for the `repeats` guard.",
    params: z.object({ slot: z.string().min(1), as: z.string().min(1) }).strict(),
  },
  forget: { description: 'Empty a named history.', params: z.object({ as: z.string().min(1) }).strict() },
  recordFailure: {
    description: 'Remember the failure signature of the test report in a slot (default testReport), for `repeatedFailure`.',
    params: z.object({ slot: z.string().min(1).default('testReport') }).strict(),
  },
} satisfies Record<string, VocabularyEntry>;

type Params<K extends keyof typeof actionParams> = z.infer<(typeof actionParams)[K]['params']>;
// biome-ignore lint/suspicious/noExplicitAny: an action takes whatever event its transition carries; each implementation reads only what it needs.
type Args = { context: RoleContext; event: any };

export function actionImplementations(services: RoleServices) {
  const orderedFiles = (files: string[]): string[] => {
    const graph = services.board.latest<TaskGraph>('TaskGraph')?.payload;
    const order = graph ? topologicalOrder(graph) : files;
    return order.filter((f) => files.includes(f));
  };
  return {
    receive: assign(({ event }: Args) => ({ trigger: event.message?.id ?? null })),
    keep: assign(({ context, event }: Args, params: Params<'keep'>) => ({ slots: { ...context.slots, [params.slot]: event.output } })),
    keepFeedback: assign(({ context, event }: Args, params: Params<'keepFeedback'>) => ({
      slots: { ...context.slots, [params.slot]: { approved: false, issues: [`A person rejected it: ${describeError(event.error)}`] } },
    })),
    count: assign(({ context }: Args, params: Params<'count'>) => ({
      counters: { ...context.counters, [params.counter]: (context.counters[params.counter] ?? 0) + 1 },
    })),
    resetCount: assign(({ context }: Args, params: Params<'resetCount'>) => ({ counters: { ...context.counters, [params.counter]: 0 } })),
    noteError: assign(({ event }: Args) => ({ error: describeError(event.error) })),
    clearError: assign(() => ({ error: null })),
    queueTasks: assign(() => {
      const graph = services.board.latest<TaskGraph>('TaskGraph')?.payload;
      return { queue: graph ? topologicalOrder(graph) : [], done: [], current: null };
    }),
    queueBugFiles: assign(() => {
      const bug = services.board.latest<BugReport>('BugReport')?.payload;
      return { queue: orderedFiles(bug?.files.map((f) => f.path) ?? []), done: [], current: null };
    }),
    nextTask: assign(({ context }: Args) => ({ current: context.queue[0] ?? null, queue: context.queue.slice(1) })),
    finishTask: assign(({ context }: Args) => ({ done: context.current ? [...context.done, context.current] : context.done, current: null })),
    remember: assign(({ context }: Args, params: Params<'remember'>) => ({
      history: { ...context.history, [params.as]: [...(context.history[params.as] ?? []), fingerprint(context.slots[params.slot])] },
    })),
    forget: assign(({ context }: Args, params: Params<'forget'>) => ({ history: { ...context.history, [params.as]: [] } })),
    recordFailure: assign(({ context }: Args, params: Params<'recordFailure'>) => {
      const report = context.slots[params.slot] as TestReport | undefined;
      return { failures: report && !report.passed ? [...context.failures, report.signature] : context.failures };
    }),
  };
}
