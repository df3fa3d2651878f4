/** `addFiles`: files a step wrote added to those kept in a slot — the tests QA adds for a criterion beside the project's tests. */
import { z } from 'zod';
import { CodeFile } from '../../documents/index.ts';
import { defineAction } from '../../engine/steps/index.ts';

const Files = z.array(CodeFile);

export const addFiles = defineAction({
  description:
    "Add the finished step's files to those kept in a slot: a file of the same path is replaced, every other kept — so a later publish holds all of them (the tests QA adds for a criterion, beside the project's tests).",
  params: z.object({ slot: z.string().min(1) }).strict(),
  names: { keepsSlot: 'slot' },
  update: ({ context, event }, params) => {
    const kept = Files.safeParse(context.slots[params.slot]);
    const added = Files.parse(event.output);
    const paths = new Set(added.map((f) => f.path));
    return { slots: { ...context.slots, [params.slot]: [...(kept.success ? kept.data : []).filter((f) => !paths.has(f.path)), ...added] } };
  },
});
