/** apps/review: its public face — what other folders may use of it. */

export { readChangeDiff } from './change-diff.ts';
export { renderChangeText } from './change-diff-text.ts';
export { readCommitDiff, readCommits } from './git-history.ts';
export { parseJsonLines } from './json-lines.ts';
export { loadRun } from './load-run.ts';
export { markdownToHtml } from './markdown-html.ts';
export { summarizeMessage } from './message-summary.ts';
export { renderReportText, renderUsageText } from './report-text.ts';
export { buildRunReport, type RunReport } from './run-report.ts';
export { isLoopback } from './server/allowed-hosts.ts';
export { type ReviewServer, startReviewServer } from './server/review-server.ts';
