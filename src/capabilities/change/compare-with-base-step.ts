/** `compareWithBase`: a change's test round judged against the tests on its base (compare-with-base.ts). */
import { z } from 'zod';
import { type BaselineTests, TestReport } from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { compareWithBase as compare } from './compare-with-base.ts';

export const compareWithBase = defineStep({
  description:
    'Compare the test report in a slot (default testReport) with the tests on the base (BaselineTests): per test where both name their ' +
    "failing tests, by the failure's signature otherwise. The output is the report with `vsBase` — whether anything failed that did not " +
    'fail before, and the lines that decided it, quoted in the committed report.',
  params: z.object({ slot: z.string().min(1).default('testReport') }).strict(),
  output: TestReport,
  async run({ params, context }, ports) {
    const report = context.slots[params.slot] as TestReport | undefined;
    if (!report) throw new SopworksError('SOP_INVALID', `compareWithBase: the slot ${params.slot} holds no test report.`);
    const base = ports.board.latest<BaselineTests>('BaselineTests')?.payload ?? null;
    const vsBase = compare(report, base);
    if (!report.passed)
      ports.run.report({ kind: 'check', detail: `round ${report.round}: ${vsBase.newFailures ? 'new failures' : 'nothing new'}: ${vsBase.lines[0]}` });
    return { ...report, vsBase: { ...vsBase, flaky: [] } };
  },
});
