import type { BugReport, TestReport } from '../schemas.ts';
import { bullets, document, shellCommand } from './markdown.ts';

/** Committed test report: counts and failures, never timings, so the same run yields the same file. */
export function renderTestReport(report: TestReport): string {
  const counts = report.counts
    ? `${report.counts.passed} passed, ${report.counts.failed} failed`
    : 'the runner printed no counts';
  const verdict = report.passed ? 'PASSED' : report.timedOut ? 'TIMED OUT' : 'FAILED';
  return document(
    `# Test report — round ${report.round}: ${verdict}`,
    `Command: \`${shellCommand(report.command)}\`  \nExit code: ${report.exitCode ?? '(killed)'}  \nResult: ${counts}`,
    report.failures.length > 0
      ? `## Failures\n\n${report.failures.map((f) => `### ${f.name}\n\n\`\`\`\n${f.message.trim()}\n\`\`\``).join('\n\n')}`
      : null,
  );
}

export function renderBugReport(bug: BugReport, number: number): string {
  return document(
    `# Bug report ${number}`,
    bug.summary,
    `## Failing tests\n\n${bullets(bug.failingTests)}`,
    `## Files to fix\n\n${bullets(bug.files.map((f) => `\`${f.path}\`: ${f.problem}`))}`,
  );
}
