/** The QA rounds of a run: each test report, with the bug report QA wrote from it. Pure. */

import type { BugReport, TestReport } from '../../documents/index.ts';
import type { Message } from '../../engine/board/index.ts';

export interface TestRound {
  message: Message<TestReport>;
  report: TestReport;
  /** The bug report QA wrote after this test report and before the next one, if any. */
  bug: Message<BugReport> | null;
}

export function testRoundsOf(messages: readonly Message[]): TestRound[] {
  const reports = messages.filter((m): m is Message<TestReport> => m.type === 'TestReport');
  return reports.map((message, i) => {
    const nextSeq = reports[i + 1]?.seq ?? Infinity;
    const bug = messages.find((m) => m.type === 'BugReport' && m.seq > message.seq && m.seq < nextSeq) as Message<BugReport> | undefined;
    return { message, report: message.payload, bug: bug ?? null };
  });
}
