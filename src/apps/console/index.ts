/** apps/console: its public face — a run told to a person (progress lines, a status line, the summary) or to a script (JSON lines). */
export { type CommandOutput, commandOutput, jsonOfEvent } from './command-output.ts';
export { JsonLine, jsonLinesSchemaText, summaryLine } from './json-lines-schema.ts';
export { describeProgress, LiveStatus } from './live-status.ts';
export { progressPrinter } from './progress.ts';
export { reportRun } from './report-run.ts';
export { usageJson } from './usage-json.ts';
