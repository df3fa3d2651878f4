/**
 * The engine's own actions: pure updates of the role's context (XState `assign`) that know no
 * capability — slots, counters, the file queue, errors and histories. Capabilities add theirs (queueing a
 * task graph's files, recording a test failure) through the vocabulary.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { describeError } from '../../ground/errors.ts';
import { defineAction } from './step.ts';

const fingerprint = (value: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('hex')
    .slice(0, 16);

const none = z.object({}).strict();

export const receive = defineAction({
  description: 'Remember the received board message as the cause of the work that follows.',
  params: none,
  update: ({ event }) => ({ trigger: event.message?.id ?? null }),
});

export const keep = defineAction({
  description: "Store the finished step's output (e.g. a model reply) in a named slot.",
  params: z.object({ slot: z.string().min(1) }).strict(),
  names: { keepsSlot: 'slot' },
  update: ({ context, event }, params) => ({ slots: { ...context.slots, [params.slot]: event.output } }),
});

export const clear = defineAction({
  description: 'Empty a named slot (null): a value kept for a step that did not happen, such as the review of a file committed without one.',
  params: z.object({ slot: z.string().min(1) }).strict(),
  names: { keepsSlot: 'slot' },
  update: ({ context }, params) => ({ slots: { ...context.slots, [params.slot]: null } }),
});

export const keepFeedback = defineAction({
  description:
    "Store a person's rejection (from a failed awaitApproval step) as a review in a slot (default review), so the revise step gets it as its issues.",
  params: z.object({ slot: z.string().min(1).default('review') }).strict(),
  names: { keepsSlot: 'slot' },
  update: ({ context, event }, params) => ({
    slots: { ...context.slots, [params.slot]: { approved: false, issues: [`A person rejected it: ${describeError(event.error)}`] } },
  }),
});

export const count = defineAction({
  description: 'Add one to a named counter.',
  params: z.object({ counter: z.string().min(1) }).strict(),
  update: ({ context }, params) => ({ counters: { ...context.counters, [params.counter]: (context.counters[params.counter] ?? 0) + 1 } }),
});

export const resetCount = defineAction({
  description: 'Set a named counter back to zero.',
  params: z.object({ counter: z.string().min(1) }).strict(),
  update: ({ context }, params) => ({ counters: { ...context.counters, [params.counter]: 0 } }),
});

export const noteError = defineAction({
  description:
    "Remember the failed step's error message (visible to templates as `error`, and with the ones noted before it since the last `clearError` as `errors`).",
  params: none,
  update: ({ context, event }) => {
    const error = describeError(event.error);
    return { error, errors: [...(context.errors ?? []), error] };
  },
});

export const clearError = defineAction({ description: 'Forget the noted errors.', params: none, update: () => ({ error: null, errors: [] }) });

export const nextTask = defineAction({
  description: 'Take the next queued file as the current one.',
  params: none,
  names: { setsCurrent: true },
  update: ({ context }) => ({ current: context.queue[0] ?? null, queue: context.queue.slice(1) }),
});

export const finishTask = defineAction({
  description: 'Mark the current file as done.',
  params: none,
  update: ({ context }) => ({ done: context.current ? [...context.done, context.current] : context.done, current: null }),
});

export const remember = defineAction({
  description: "Add a fingerprint of a slot's value to a named history (e.g. each review of a file), for the `repeats` guard.",
  params: z.object({ slot: z.string().min(1), as: z.string().min(1) }).strict(),
  update: ({ context }, params) => ({
    history: { ...context.history, [params.as]: [...(context.history[params.as] ?? []), fingerprint(context.slots[params.slot])] },
  }),
});

export const forget = defineAction({
  description: 'Empty a named history.',
  params: z.object({ as: z.string().min(1) }).strict(),
  update: ({ context }, params) => ({ history: { ...context.history, [params.as]: [] } }),
});
