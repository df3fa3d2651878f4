/**
 * Whether a change's test round failed in a way the base did not: per test where the runner's output
 * names the failing tests on both sides, by the failure's signature (its output without timings) where
 * it does not. The lines that decided are kept, to be quoted in the committed report and shown to whoever
 * is asked to fix it. Pure: two reports in, a verdict out.
 */
/** What a test round says about itself (a TestReport's fields; the base's tests have the same shape). */
export interface RoundFacts {
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  counts: { passed: number; failed: number } | null;
  failures: { name: string; message: string }[];
  signature: string;
  output: string;
}

/** The verdict, as a TestReport's `vsBase` carries it (src/documents/schemas.ts). */
export interface BaseComparison {
  /** True when something failed that did not fail on the base: the change is blamed. */
  newFailures: boolean;
  /** How it was decided: per test, or by the failure's signature (no per-test results on one side). */
  by: 'tests' | 'signature' | 'passed' | 'no-base';
  /** Failing tests that also failed on the base, and those that did not. */
  failingBefore: string[];
  failingNow: string[];
  /** The lines that decided, as a person reads them. */
  lines: string[];
}

export function compareWithBase(round: RoundFacts, base: (RoundFacts & { ran: boolean }) | null): BaseComparison {
  if (round.passed) return { newFailures: false, by: 'passed', failingBefore: [], failingNow: [], lines: ['The tests pass.'] };
  const now = round.failures.map((f) => f.name);
  if (!base?.ran || base.passed) {
    const lines = [base?.ran ? 'The tests passed on the base: every failure is new.' : 'The base had no tests to compare with: every failure is new.'];
    return { newFailures: true, by: 'no-base', failingBefore: [], failingNow: now, lines: [...lines, ...explaining(round)] };
  }
  const before = new Set(base.failures.map((f) => f.name));
  if (round.failures.length > 0 && base.failures.length > 0 && !round.timedOut) {
    const fresh = now.filter((name) => !before.has(name));
    const old = now.filter((name) => before.has(name));
    const more = (round.counts?.failed ?? 0) > (base.counts?.failed ?? Number.POSITIVE_INFINITY);
    const lines = [
      ...(fresh.length > 0 ? [`New failures (not failing on the base): ${fresh.join(', ')}`] : []),
      ...(old.length > 0 ? [`Failing on the base already: ${old.join(', ')}`] : []),
      ...(more && fresh.length === 0 ? [`More tests fail than on the base (${round.counts?.failed} against ${base.counts?.failed}).`] : []),
    ];
    return { newFailures: fresh.length > 0 || more, by: 'tests', failingBefore: old, failingNow: fresh, lines };
  }
  // No test names on one side (a runner that did not start, a crash before the first test): the failure itself is compared.
  const same = round.signature === base.signature && round.exitCode === base.exitCode && round.timedOut === base.timedOut;
  const lines = same
    ? ['The same failure as on the base (the same output, timings aside):', ...explaining(round)]
    : ["A failure other than the base's:", ...explaining(round).map((l) => `now: ${l}`), ...explaining(base).map((l) => `base: ${l}`)];
  return { newFailures: !same, by: 'signature', failingBefore: same ? now : [], failingNow: same ? [] : now, lines };
}

/** The few lines of a round's output that say why it failed: error lines first, else its last lines. */
export function explaining(round: Pick<RoundFacts, 'output' | 'exitCode' | 'timedOut'>): string[] {
  if (round.timedOut) return ['stopped by the time limit'];
  const lines = round.output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const telling = lines.filter((l) => EXPLAINS.test(l));
  const chosen = (telling.length > 0 ? telling : lines).slice(-3).map((l) => (l.length > 200 ? `${l.slice(0, 199)}…` : l));
  return chosen.length > 0 ? chosen : [`exit code ${round.exitCode ?? '(killed)'}, no output`];
}

const EXPLAINS =
  /not found|No module named|Cannot find module|ModuleNotFoundError|ImportError|SyntaxError|command not found|ENOENT|EACCES|permission denied|cannot (find|open|load)|no such file|error:|Error:|FAIL|panic:/i;
