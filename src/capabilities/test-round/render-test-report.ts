import type { BugReport, TestReport } from '../../documents/index.ts';
import { bullets, document, shellCommand } from '../../ground/markdown.ts';
import { describeLimits, type SandboxReport, securityViolations } from '../../host/sandbox/index.ts';

/**
 * Committed test report: what ran and what it did — counts and failures, and what the sandbox stopped
 * — never timings, and nothing of the machine (the sandbox mode, its limits and gaps stay in the
 * TestReport on the board, shown by `sopworks review`): the same run commits the same page in every
 * sandbox mode, on every machine.
 */
export function renderTestReport(report: TestReport): string {
  const counts = report.counts ? `${report.counts.passed} passed, ${report.counts.failed} failed` : 'the runner printed no counts';
  const verdict = report.passed ? 'PASSED' : report.timedOut ? 'TIMED OUT' : 'FAILED';
  return document(
    `# Test report — round ${report.round}: ${verdict}`,
    `${report.kind && report.kind !== 'tests' ? `What ran: ${KIND_TEXT[report.kind]}  \n` : ''}${builtFirst(report)}Command: \`${shellCommand(report.command)}\`  \nExit code: ${report.exitCode ?? '(killed)'}  \nResult: ${counts}`,
    report.vsBase
      ? `## Compared with the base\n\n${report.vsBase.newFailures ? 'Something fails that did not fail on the base: the change is blamed.' : 'Nothing fails that did not fail on the base: the change is not blamed.'} Decided ${BY_TEXT[report.vsBase.by]}:\n\n${quote(report.vsBase.lines)}`
      : null,
    (report.vsBase?.flaky ?? []).length > 0
      ? `## Flaky tests\n\nSeen passing and failing on the same code (run again): not blamed on the change.\n\n${bullets((report.vsBase?.flaky ?? []).map((f) => `${f.name}: ${f.evidence}`))}`
      : null,
    report.failures.length > 0 ? `## Failures\n\n${report.failures.map((f) => `### ${f.name}\n\n\`\`\`\n${f.message.trim()}\n\`\`\``).join('\n\n')}` : null,
    report.sandbox ? renderStopped(report.sandbox) : null,
    report.sandbox ? renderEnvironment(report.sandbox) : null,
  );
}

/** The build that ran before the tests and passed (a failed one is the report's own command): its command and exit code, never its timings. */
function builtFirst(report: TestReport): string {
  if (!report.build || report.kind === 'build') return '';
  return `Built first with: \`${shellCommand(report.build.command)}\` (exit code ${report.build.exitCode ?? '(killed)'})  \n`;
}

/**
 * What sopworks set for the command, so a reader knows the code ran as it would on their machine. The
 * page says what is the same on every machine; what this machine decides (the locale kept from the
 * user's environment, pyenv's root, the fallback sandbox's Node options) stays on the board.
 */
export function renderEnvironment(sandbox: SandboxReport): string | null {
  if (!sandbox.environment) return null;
  const same = sandbox.environment.filter((line) => !/^(LANG|LC_ALL|LC_CTYPE|TZ|PYENV_ROOT|PYENV_VERSION|NODE_OPTIONS)\b/.test(line));
  return [
    '## Environment',
    'What sopworks set for the command; nothing else of its own environment reached it (no NO_COLOR, no CI: the code ran as it would on your machine). The locale and time zone (LANG, LC_ALL, LC_CTYPE, TZ) are yours when set.',
    bullets(same.map((line) => `\`${line.replace(/:.*/, '')}\`${line.slice(line.replace(/:.*/, '').length)}`)),
  ].join('\n\n');
}

const BY_TEXT = {
  tests: 'test by test',
  signature: "by the failure's signature (the runner named no failing test on one side)",
  passed: 'by the tests passing',
  'no-base': 'without a base to compare with',
} as const;

/** Lines quoted as they were printed. */
export const quote = (lines: readonly string[]): string => `\`\`\`\n${lines.join('\n')}\n\`\`\``;

const KIND_TEXT = {
  install: "the install of the project's dependencies, before the tests",
  build: "the repository's own build, before the tests (which did not run: it failed)",
  smoke: 'the program, on its smoke input, after the tests passed',
} as const;

/** What the sandbox stopped or saw, when it did: limits hit, violations, a security violation. Null: nothing. */
function renderStopped(sandbox: SandboxReport): string | null {
  if (sandbox.limitsHit.length === 0 && sandbox.violations.length === 0) return null;
  return [
    `## Sandbox\n\nLimits: ${describeLimits(sandbox.limits)}  \nLimits hit: ${sandbox.limitsHit.length > 0 ? sandbox.limitsHit.join(', ') : 'none'}`,
    sandbox.limitNotes && sandbox.limitNotes.length > 0 ? `### Limits that ended the run\n\n${bullets(sandbox.limitNotes)}` : null,
    securityViolations(sandbox).length > 0
      ? `### SECURITY VIOLATION\n\nThe generated code changed what it must never touch; sopworks put it back and stopped the run:\n\n${bullets(securityViolations(sandbox))}`
      : null,
    sandbox.violations.length > 0 ? `### Violations seen\n\n${bullets(sandbox.violations.map((v) => `${v.kind}: ${v.detail}`))}` : null,
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
