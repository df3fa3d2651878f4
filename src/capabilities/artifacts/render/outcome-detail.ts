/** A document (a view) in one line appended to an outcome's reason: a test report as its failing tests, else the value. */
import * as S from '../../../documents/index.ts';

export function documentLine(value: unknown): string {
  const report = S.TestReport.safeParse(value);
  if (report.success) {
    const names = report.data.failures.map((f) => f.name);
    return names.length > 0 ? `failing tests: ${names.join('; ')}` : `exit code ${report.data.exitCode}${report.data.timedOut ? ' (timed out)' : ''}`;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}
