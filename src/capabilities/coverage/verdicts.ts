/**
 * The guards that read a coverage matrix, and what a conclusion says of one: done means covered — every
 * P0 criterion proven by a passing test that names it — and a criterion no test names can go back to QA.
 */
import { z } from 'zod';
import { Coverage, coverageSummary } from '../../documents/index.ts';
import { defineGuard } from '../../engine/steps/index.ts';

const inSlot = (slots: Record<string, unknown>, slot: string): Coverage | undefined => {
  const parsed = Coverage.safeParse(slots[slot]);
  return parsed.success ? parsed.data : undefined;
};

export const criteriaProven = defineGuard({
  description: 'Every P0 criterion of the coverage matrix in a slot (default coverage) is proven: a passing test names it and none that names it fails.',
  params: z.object({ slot: z.string().min(1).default('coverage') }).strict(),
  names: { readsSlot: 'slot' },
  test: ({ context }, params) => {
    const coverage = inSlot(context.slots, params.slot);
    return coverage !== undefined && coverageSummary(coverage).unmet.length === 0;
  },
});

export const criteriaUntested = defineGuard({
  description:
    "A P0 criterion of the coverage matrix in a slot (default coverage) is untested — no test names it — while the runner's output names its tests (tests QA can add; a runner that names none cannot show them).",
  params: z.object({ slot: z.string().min(1).default('coverage') }).strict(),
  names: { readsSlot: 'slot' },
  test: ({ context }, params) => {
    const coverage = inSlot(context.slots, params.slot);
    return coverage !== undefined && coverage.testsNamed > 0 && coverageSummary(coverage).unmet.some((u) => u.status === 'untested');
  },
});
