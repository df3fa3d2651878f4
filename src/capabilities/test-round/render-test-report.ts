import type { BugReport, TestReport } from '../../documents/schemas.ts';
import { bullets, document, shellCommand } from '../../ground/markdown.ts';
import { describeLimits } from '../../host/sandbox/limits.ts';
import type { SandboxReport } from '../../host/sandbox/sandbox-report.ts';
import { securityViolations } from '../../host/sandbox/security-violation.ts';

/** Committed test report: counts and failures, never timings, so the same run yields the same file. */
export function renderTestReport(report: TestReport): string {
  const counts = report.counts ? `${report.counts.passed} passed, ${report.counts.failed} failed` : 'the runner printed no counts';
  const verdict = report.passed ? 'PASSED' : report.timedOut ? 'TIMED OUT' : 'FAILED';
  return document(
    `# Test report — round ${report.round}: ${verdict}`,
    `${report.kind && report.kind !== 'tests' ? `What ran: ${KIND_TEXT[report.kind]}  \n` : ''}Command: \`${shellCommand(report.command)}\`  \nExit code: ${report.exitCode ?? '(killed)'}  \nResult: ${counts}`,
    report.failures.length > 0 ? `## Failures\n\n${report.failures.map((f) => `### ${f.name}\n\n\`\`\`\n${f.message.trim()}\n\`\`\``).join('\n\n')}` : null,
    report.sandbox ? renderSandbox(report.sandbox) : null,
  );
}

const KIND_TEXT = {
  install: "the install of the project's dependencies, before the tests",
  smoke: 'the program, on its smoke input, after the tests passed',
} as const;

const MODE_TEXT: Record<SandboxReport['mode'], string> = {
  bubblewrap: 'bubblewrap — no network, read-only system, only the project writable, private /tmp, empty HOME',
  'node-permissions': "**WEAKER SANDBOX** — Node's permission model instead of bubblewrap: writes limited to the project, network not blocked",
  unsandboxed: "**NOT SANDBOXED** — run with the user's rights (--allow-unsandboxed); only the limits applied",
};

/** How the tests ran: mode, limits, what was hit and refused, and what the mode could not stop. */
function renderSandbox(sandbox: SandboxReport): string {
  return [
    `## Sandbox\n\nMode: ${MODE_TEXT[sandbox.mode]}  \nLimits: ${describeLimits(sandbox.limits)}  \nLimits hit: ${sandbox.limitsHit.length > 0 ? sandbox.limitsHit.join(', ') : 'none'}`,
    sandbox.limitNotes && sandbox.limitNotes.length > 0 ? `### Limits that ended the run\n\n${bullets(sandbox.limitNotes)}` : null,
    securityViolations(sandbox).length > 0
      ? `### SECURITY VIOLATION\n\nThe generated code changed what it must never touch; sopworks put it back and stopped the run:\n\n${bullets(securityViolations(sandbox))}`
      : null,
    `### Violations seen\n\n${bullets(sandbox.violations.map((v) => `${v.kind}: ${v.detail}`))}`,
    sandbox.gaps.length > 0 ? `### Not stopped in this mode\n\n${bullets(sandbox.gaps)}` : null,
  ]
    .filter((part): part is string => part !== null)
    .join('\n\n');
}

export function renderBugReport(bug: BugReport, number: number): string {
  return document(
    `# Bug report ${number}`,
    bug.summary,
    `## Failing tests\n\n${bullets(bug.failingTests)}`,
    `## Files to fix\n\n${bullets(bug.files.map((f) => `\`${f.path}\`: ${f.problem}`))}`,
  );
}
