/**
 * The guards that read a coverage matrix, and what a conclusion says of one: done means covered — every
 * P0 criterion proven by a passing test that names it, or by a manual check the review accepted — a
 * criterion no test names can go back to QA, a manual check awaiting a look goes to the review, and one
 * the review rejected goes back to the Engineer.
 */
import { z } from 'zod';
import { Coverage, coverageSummary, ManualChecks } from '../../documents/index.ts';
import { defineGuard } from '../../engine/steps/index.ts';

const inSlot = (slots: Record<string, unknown>, slot: string): Coverage | undefined => {
  const parsed = Coverage.safeParse(slots[slot]);
  return parsed.success ? parsed.data : undefined;
};

export const criteriaProven = defineGuard({
  description:
    'Every P0 criterion of the coverage matrix in a slot (default coverage) is proven: a passing test names it and none that names it fails, or — no test names it — its manual check was accepted.',
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

/** The P0 criteria of a matrix no test names that QA declared manual, with what the review said of them. */
const p0Manual = (coverage: Coverage) => coverage.criteria.filter((c) => c.priority === 'P0' && c.tests.length === 0 && c.manual !== null);

export const manualReviewDue = defineGuard({
  description:
    'A P0 criterion of the coverage matrix in a slot (default coverage) that no test names is a manual check with no verdict on its files as they are now (never reviewed, or a file it reads changed since).',
  params: z.object({ slot: z.string().min(1).default('coverage') }).strict(),
  names: { readsSlot: 'slot' },
  test: ({ context }, params) => {
    const coverage = inSlot(context.slots, params.slot);
    return coverage !== undefined && p0Manual(coverage).some((c) => c.manual!.verdict === null);
  },
});

export const criteriaRejected = defineGuard({
  description:
    'A P0 criterion of the coverage matrix in a slot (default coverage) is rejected: no test names it and the review of its manual check rejected its files.',
  params: z.object({ slot: z.string().min(1).default('coverage') }).strict(),
  names: { readsSlot: 'slot' },
  test: ({ context }, params) => {
    const coverage = inSlot(context.slots, params.slot);
    return coverage !== undefined && coverage.criteria.some((c) => c.priority === 'P0' && c.status === 'rejected');
  },
});

export const hasManualChecks = defineGuard({
  description: 'The ManualChecks in a slot (default manualChecks) holds at least one check.',
  params: z.object({ slot: z.string().min(1).default('manualChecks') }).strict(),
  names: { readsSlot: 'slot' },
  test: ({ context }, params) => {
    const parsed = ManualChecks.safeParse(context.slots[params.slot]);
    return parsed.success && parsed.data.checks.length > 0;
  },
});
