/** The guards and the action that read a test round's verdict: whether it passed, and whether it failed as the last one did. */
import { z } from 'zod';
import type { TestReport, TestTriage } from '../../documents/index.ts';
import { defineAction, defineGuard } from '../../engine/steps/index.ts';

export const testsPassed = defineGuard({
  description: 'The test report in a slot (default testReport) passed.',
  params: z.object({ slot: z.string().min(1).default('testReport') }).strict(),
  names: { readsSlot: 'slot' },
  test: ({ context }, params) => (context.slots[params.slot] as TestReport | undefined)?.passed === true,
});

export const flakySetAside = defineGuard({
  description: 'The test report in a slot (default testReport) set flaky tests aside (a rerunNewFailures step): seen passing and failing on the same code.',
  params: z.object({ slot: z.string().min(1).default('testReport') }).strict(),
  names: { readsSlot: 'slot' },
  test: ({ context }, params) => ((context.slots[params.slot] as TestReport | undefined)?.vsBase?.flaky ?? []).length > 0,
});

export const ownTestsWrong = defineGuard({
  description:
    'The test triage in a slot (default triage) names tests QA wrote for the change as wrong: QA rewrites them before any source file goes to the Engineer.',
  params: z.object({ slot: z.string().min(1).default('triage') }).strict(),
  names: { readsSlot: 'slot' },
  test: ({ context }, params) => ((context.slots[params.slot] as TestTriage | undefined)?.ownTests ?? []).length > 0,
});

export const repeatedFailure = defineGuard({
  description: 'The last two test reports failed the same way (a loop, not progress).',
  params: z.object({}).strict(),
  test: ({ context }) => {
    const [a, b] = context.failures.slice(-2);
    return a !== undefined && a === b;
  },
});

export const recordFailure = defineAction({
  description: 'Remember the failure signature of the test report in a slot (default testReport), for `repeatedFailure`.',
  params: z.object({ slot: z.string().min(1).default('testReport') }).strict(),
  names: { readsSlot: 'slot' },
  update: ({ context }, params) => {
    const report = context.slots[params.slot] as TestReport | undefined;
    return { failures: report && !report.passed ? [...context.failures, report.signature] : context.failures };
  },
});
