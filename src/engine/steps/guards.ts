/** The engine's own guards: pure questions about the role's context and the board, knowing no capability. */
import { z } from 'zod';
import { defineGuard } from './step.ts';

export const approved = defineGuard({
  description: 'The review in a slot (default review) approved the work.',
  params: z.object({ slot: z.string().min(1).default('review') }).strict(),
  names: { readsSlot: 'slot' },
  test: ({ context }, params) => (context.slots[params.slot] as { approved?: unknown } | undefined)?.approved === true,
});

export const below = defineGuard({
  description: 'A named counter is below a bound — how every loop in a SOP is bounded.',
  params: z.object({ counter: z.string().min(1), max: z.number().int().min(0) }).strict(),
  test: ({ context }, params) => (context.counters[params.counter] ?? 0) < params.max,
});

export const hasQueued = defineGuard({
  description: 'Files are waiting in the queue.',
  params: z.object({}).strict(),
  test: ({ context }) => context.queue.length > 0,
});

export const repeats = defineGuard({
  description: 'The latest value remembered under a name was remembered before: a loop (a review that flip-flops), not progress.',
  params: z.object({ as: z.string().min(1) }).strict(),
  test: ({ context }, params) => {
    const seen = context.history[params.as] ?? [];
    const last = seen.at(-1);
    return last !== undefined && seen.slice(0, -1).includes(last);
  },
});

export const hasPublished = defineGuard({
  description: 'A message of the given type is on the board.',
  params: z.object({ type: z.string().min(1) }).strict(),
  names: { messageType: 'type' },
  test: (_, params, board) => board.latest(params.type) !== undefined,
});

export const setting = defineGuard({
  description:
    "The role's setting `name` in company.yaml (`settings:` of its entry) is `is` (default true); a setting the company leaves out has the value `otherwise` (default true). How a company switches a part of a SOP on or off without editing it (selfReview: false).",
  params: z
    .object({
      name: z.string().min(1),
      is: z.union([z.boolean(), z.number(), z.string()]).default(true),
      otherwise: z.union([z.boolean(), z.number(), z.string()]).default(true),
    })
    .strict(),
  names: { readsSetting: 'name' },
  test: ({ settings }, params) => (settings[params.name] ?? params.otherwise) === params.is,
});

export const isSet = defineGuard({
  description: 'A slot holds a value (not null), or, with `field`, that field of it does (e.g. the lockfile of an install to commit).',
  params: z.object({ slot: z.string().min(1), field: z.string().min(1).nullable().default(null) }).strict(),
  test: ({ context }, params) => {
    const value = context.slots[params.slot];
    const picked = params.field === null ? value : (value as Record<string, unknown> | null | undefined)?.[params.field];
    return picked !== null && picked !== undefined;
  },
});
