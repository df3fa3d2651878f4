/**
 * A document (a view) in one line appended to an outcome's reason, saying the first cause: tests that
 * could not start on the base by the line that says why (a failed install, a missing runner, no tests
 * ran), a coverage matrix by the criteria it leaves unproven, a test report by its failing tests (its flaky ones
 * apart, with their evidence), else the value.
 */
import * as S from '../../../documents/index.ts';

export function documentLine(value: unknown): string {
  const baseline = S.BaselineTests.safeParse(value);
  if (baseline.success && !baseline.data.runner.started && baseline.data.runner.line) return baseline.data.runner.line;
  const coverage = S.Coverage.safeParse(value);
  if (coverage.success) return S.coverageLine(coverage.data);
  const report = S.TestReport.safeParse(value);
  if (report.success) {
    const names = report.data.failures.map((f) => f.name);
    const none = report.data.failures.find((f) => f.name === 'no tests ran');
    if (none) return `no tests ran: ${none.message}`;
    // Flaky tests are named apart, with what they were seen doing: they are not the change's failures.
    const flaky = report.data.vsBase?.flaky ?? [];
    const failing = names.filter((name) => !flaky.some((f) => f.name === name));
    const flakyLine = flaky.length > 0 ? `flaky, not blamed on the change: ${flaky.map((f) => `${f.name} (${f.evidence})`).join('; ')}` : null;
    if (flakyLine) return failing.length > 0 ? `failing tests: ${failing.join('; ')}; ${flakyLine}` : flakyLine;
    return names.length > 0 ? `failing tests: ${names.join('; ')}` : `exit code ${report.data.exitCode}${report.data.timedOut ? ' (timed out)' : ''}`;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}
