/**
 * A security violation: generated code changed the repository's metadata or the run's record (an
 * `integrity` violation, already undone by the sandbox). Unlike a refused write, which the sandbox
 * stopped, this got through a layer; the run stops on it (Company) and the TestReport names it.
 */
import type { SandboxReport } from './sandbox-report.ts';

export function securityViolations(sandbox: Pick<SandboxReport, 'violations'>): string[] {
  return sandbox.violations.filter((v) => v.kind === 'integrity').map((v) => v.detail);
}

/** The run's reason when a TestReport carries one; null when it does not. */
export function securityStopReason(report: { round: number; sandbox?: Pick<SandboxReport, 'violations'> | null }): string | null {
  const found = report.sandbox ? securityViolations(report.sandbox) : [];
  if (found.length === 0) return null;
  return `security violation in test round ${report.round}: the generated code changed what it must never touch — ${found.join('; ')}; see docs/test-reports/round-${report.round}.md`;
}
