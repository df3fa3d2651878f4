/** A test round's report and the bug report that sends failures back, as board messages: committed under docs/ (a change run: its folder). */
import * as S from '../../documents/index.ts';
import { documentsCommitted, documentsDir } from '../../documents/index.ts';
import { type BoardReader, defineMessage, oneDocument } from '../../engine/board/index.ts';
import { renderBugReport, renderTestReport } from './render-test-report.ts';

/** Under docs/, or under the change's folder in a change run (src/documents/documents-dir.ts). */
const testReportPath = (report: S.TestReport, board: BoardReader): string => `${documentsDir(board)}/test-reports/round-${report.round}.md`;
/** Bug reports are numbered in board order: the one after those already posted. */
const bugNumber = (board: BoardReader): number => board.all('BugReport').length + 1;
const bugReportPath = (number: number, board: BoardReader): string => `${documentsDir(board)}/bug-reports/bug-${number}.md`;

export const TestReport = defineMessage({
  schema: S.TestReport,
  description:
    'The result of a test round (the tests; a failed dependency install; the program run on its smoke input); committed as docs/test-reports/round-N.md (a change run: its folder, kept in the run folder unless --commit-documents).',
  ...oneDocument(testReportPath, renderTestReport),
  // A change's rounds, failed ones included, are no commits on its branch unless the run commits its documents.
  committed: (_report, board) => documentsCommitted(board),
  subject: (report) =>
    `test: round ${report.round} ${report.passed ? 'passed' : 'failed'}` +
    (report.counts ? ` (${report.counts.passed} passed, ${report.counts.failed} failed)` : ''),
});

export const BugReport = defineMessage({
  schema: S.BugReport,
  description:
    'What failed and which files must change; committed as docs/bug-reports/bug-N.md (a change run: its folder, kept in the run folder unless --commit-documents).',
  files: (bug, board) => {
    const number = bugNumber(board);
    return [{ path: bugReportPath(number, board), content: renderBugReport(bug, number) }];
  },
  paths: (_bug, board) => [bugReportPath(bugNumber(board), board)],
  committed: (_bug, board) => documentsCommitted(board),
  subject: (bug) => `docs: bug report for ${bug.files.map((f) => f.path).join(', ')}`,
});
