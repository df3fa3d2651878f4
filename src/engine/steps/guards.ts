/** Guards a SOP may name: pure questions about the role's context. */
import { z } from 'zod';
import type { Review, TestReport } from '../../documents/schemas.ts';
import type { RoleContext } from '../sop/role-context.ts';
import type { VocabularyEntry } from './actions.ts';
import type { RoleServices } from '../sop/services.ts';

export const guardParams = {
  approved: {
    description: 'The review in a slot (default review) approved the work.',
    params: z.object({ slot: z.string().min(1).default('review') }).strict(),
  },
  below: {
    description: 'A named counter is below a bound — how every loop in a SOP is bounded.',
    params: z.object({ counter: z.string().min(1), max: z.number().int().min(0) }).strict(),
  },
  hasQueued: { description: 'Files are waiting in the queue.', params: z.object({}).strict() },
  testsPassed: {
    description: 'The test report in a slot (default testReport) passed.',
    params: z.object({ slot: z.string().min(1).default('testReport') }).strict(),
  },
  repeatedFailure: {
    description: 'The last two test reports failed the same way (a loop, not progress).',
    params: z.object({}).strict(),
  },
  repeats: {
    description: 'The latest value remembered under a name was remembered before: a loop (a review that flip-flops), not progress.',
    params: z.object({ as: z.string().min(1) }).strict(),
  },
  hasPublished: {
    description: 'A message of the given type is on the board.',
    params: z.object({ type: z.string().min(1) }).strict(),
  },
} satisfies Record<string, VocabularyEntry>;

type Params<K extends keyof typeof guardParams> = z.infer<(typeof guardParams)[K]['params']>;
type Args = { context: RoleContext };

export function guardImplementations(services: RoleServices) {
  return {
    approved: ({ context }: Args, params: Params<'approved'>) => (context.slots[params.slot] as Review | undefined)?.approved === true,
    below: ({ context }: Args, params: Params<'below'>) => (context.counters[params.counter] ?? 0) < params.max,
    hasQueued: ({ context }: Args) => context.queue.length > 0,
    testsPassed: ({ context }: Args, params: Params<'testsPassed'>) => (context.slots[params.slot] as TestReport | undefined)?.passed === true,
    repeatedFailure: ({ context }: Args) => {
      const [a, b] = context.failures.slice(-2);
      return a !== undefined && a === b;
    },
    repeats: ({ context }: Args, params: Params<'repeats'>) => {
      const seen = context.history[params.as] ?? [];
      const last = seen.at(-1);
      return last !== undefined && seen.slice(0, -1).includes(last);
    },
    hasPublished: (_: Args, params: Params<'hasPublished'>) => services.board.latest(params.type) !== undefined,
  };
}
