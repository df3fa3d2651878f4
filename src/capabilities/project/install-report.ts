/**
 * An install's result as a round of the test loop (a DependencyInstall, of kind `install`): a failure
 * — a refused manifest, an installer that failed — goes to the Engineer as a bug report like a failing
 * test, quoting what was refused and where, or the installer's own error lines.
 */

import { describeInstallFailure, describeRefusal, type InstallPlan, type Refusal, type UnmetDependency } from '../../host/install/index.ts';
import type { SandboxOutcome, SandboxReport } from '../../host/sandbox/index.ts';

/** The DependencyInstall message's payload (artifacts/schemas.ts), which the step publishes. */
export interface InstallRound {
  round: number;
  kind: 'install';
  command: string[];
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  counts: null;
  failures: { name: string; message: string }[];
  signature: string;
  output: string;
  sandbox: SandboxReport | null;
  ecosystem: 'npm' | 'python' | null;
  lockfile: { path: string; content: string } | null;
  scriptsSkipped: string[];
}

export interface InstallReportInput {
  round: number;
  plan: InstallPlan | null;
  outcome: SandboxOutcome | null;
  refusals: Refusal[];
  /** Lines said before the output: config files ignored, user settings not carried, the proxy's origins. */
  notes: string[];
  lockfile: { path: string; content: string } | null;
  scriptsSkipped: string[];
  skipped: string | null;
  /** Declared dependencies the install did not satisfy though it exited 0: a failed install, each named. */
  unmet?: UnmetDependency[];
  /** Why the install could not run at all (its package manager neither found nor fetched): a failed install. */
  couldNotRun?: { name: string; message: string } | null;
}

export function installReport(input: InstallReportInput): InstallRound {
  const { plan, outcome, refusals } = input;
  const refused = refusals.length > 0;
  const unmet = input.unmet ?? [];
  const ran = (outcome === null || (outcome.exitCode === 0 && !outcome.timedOut)) && !input.couldNotRun;
  const passed = !refused && ran && unmet.length === 0;
  const failures = input.couldNotRun
    ? [input.couldNotRun]
    : refused
      ? refusals.map((refusal) => ({ name: `install: ${refusal.file}${refusal.line === null ? '' : `:${refusal.line}`}`, message: describeRefusal(refusal) }))
      : !ran
        ? describeInstallFailure(outcome?.output ?? '', outcome?.exitCode ?? null, outcome?.timedOut ?? false)
        : unmet.map((dependency) => ({ name: `install: ${dependency.name}`, message: dependency.why }));
  const said = refused
    ? ['Refused before the install ran — these name a package source other than the configured registry:', ...refusals.map(describeRefusal)].join('\n')
    : input.couldNotRun
      ? input.couldNotRun.message
      : (input.skipped ?? outcome?.output ?? '');
  const notes = input.notes.length > 0 ? `${input.notes.map((note) => `note: ${note}`).join('\n')}\n` : '';
  return {
    round: input.round,
    kind: 'install',
    command: plan?.shown ?? ['(no dependencies declared)'],
    passed,
    exitCode: outcome?.exitCode ?? (refused || input.couldNotRun ? 1 : 0),
    timedOut: outcome?.timedOut ?? false,
    counts: null,
    failures,
    signature: passed ? 'passed' : `install: ${failures.map((f) => f.name).join(', ')}`,
    output: `${notes}${said}`.slice(-8000),
    sandbox: outcome ? { mode: outcome.mode, limits: outcome.limits, limitsHit: outcome.limitsHit, violations: outcome.violations, gaps: outcome.gaps } : null,
    ecosystem: plan?.ecosystem ?? null,
    lockfile: input.lockfile,
    scriptsSkipped: input.scriptsSkipped,
  };
}
