/**
 * Which of a round's new failures are flaky: a test seen both passing and failing on the same code —
 * failing in the round and passing when the same command ran again on the same tree, or passing on the
 * base and failing when the base's tests ran again — is not blamed on the change. A test the change
 * wrote is never excused (its tests must be reliable), and a re-run that did not run the whole suite
 * (stopped by its time limit, no counts, fewer tests than the round) proves no pass. Pure: the round's
 * verdict and the re-runs' facts in, the verdict after them out.
 */

import type { TestReport } from '../../documents/index.ts';
import { citedCriteria } from '../../documents/index.ts';
import { escapeRegExp } from '../../ground/files/index.ts';

/** A round's comparison with the base (change/compare-with-base.ts), as the TestReport carries it. */
type BaseComparison = Omit<NonNullable<TestReport['vsBase']>, 'flaky'>;

/** What a re-run of the tests says: enough to tell which tests failed, and whether it ran them all. */
export interface RerunFacts {
  timedOut: boolean;
  counts: { passed: number; failed: number } | null;
  failures: readonly { name: string }[];
}

export interface FlakyTest {
  name: string;
  /** What it was seen doing, as a person reads it: "failed in round 2, passed on its re-run". */
  evidence: string;
}

export interface FlakyVerdict {
  flaky: FlakyTest[];
  /** The new failures still blamed on the change. */
  blamed: string[];
}

/**
 * Whether the change wrote this test: its name cites a criterion of the change request (AC-n, KW-n), or
 * names a test file the change wrote (`test/x.test.js`, pytest's `tests/test_x.py::…`, unittest's `tests.test_x.…`).
 */
export function writtenByChange(name: string, files: readonly string[]): boolean {
  if (citedCriteria(name).length > 0) return true;
  return files.some((file) => {
    const module = file.replace(/\.[^./]+$/, '').replaceAll('/', '.');
    return name.includes(file) || new RegExp(`(^|[\\s.(])${escapeRegExp(module)}\\.`).test(name);
  });
}

/**
 * The new failures, by test name, that are no test of the change: only these are worth running again. A
 * base whose tests all passed makes every failure new (`no-base`, the base ran); a base that ran no test,
 * or a comparison by the failure's signature (no names on one side), leaves nothing to run again.
 */
export function rerunCandidates(comparison: BaseComparison, changeFiles: readonly string[], baseRan: boolean): string[] {
  if (!comparison.newFailures || !(comparison.by === 'tests' || (comparison.by === 'no-base' && baseRan))) return [];
  return comparison.failingNow.filter((name) => !writtenByChange(name, changeFiles));
}

export interface FlakyInput {
  round: number;
  /** The round's new failures (compare-with-base's `failingNow`). */
  fresh: readonly string[];
  /** Those the change did not write (`rerunCandidates`): the others are blamed whatever the re-runs say. */
  candidates: readonly string[];
  /** How many tests the round ran: a re-run that ran fewer proves no pass. */
  roundTotal: number;
  /** The same command on the same tree, run again; null when it did not run. */
  rerun: RerunFacts | null;
  /** The base's tests, run again where they ran; null when they did not run. */
  baseRerun: RerunFacts | null;
}

export function judgeFlaky(input: FlakyInput): FlakyVerdict {
  const { rerun, baseRerun } = input;
  const complete = rerun !== null && !rerun.timedOut && rerun.counts !== null && rerun.counts.passed + rerun.counts.failed >= input.roundTotal;
  const failedAgain = new Set(rerun?.failures.map((f) => f.name) ?? []);
  const failedOnBase = new Set(baseRerun?.failures.map((f) => f.name) ?? []);
  const flaky: FlakyTest[] = [];
  const blamed: string[] = [];
  for (const name of input.fresh) {
    const evidence = !input.candidates.includes(name)
      ? null
      : complete && !failedAgain.has(name)
        ? `failed in round ${input.round}, passed on its re-run`
        : failedOnBase.has(name)
          ? `passed on the base, failed on the base's re-run${failedAgain.has(name) ? ` (and failed again on round ${input.round}'s re-run)` : ''}`
          : null;
    if (evidence) flaky.push({ name, evidence });
    else blamed.push(name);
  }
  return { flaky, blamed };
}

/**
 * The comparison once the flaky tests are set aside: blamed only for what remains (or when, without them,
 * more tests still fail than on the base: `failedBeyondBase`), its lines saying what was set aside and why.
 */
export function withoutFlaky(
  comparison: BaseComparison,
  verdict: FlakyVerdict,
  changeWrote: readonly string[],
  failedBeyondBase: number | null,
): NonNullable<TestReport['vsBase']> {
  const lines = comparison.lines.filter((line) => !line.startsWith('New failures (not failing on the base)'));
  const own = verdict.blamed.filter((name) => changeWrote.includes(name));
  const other = verdict.blamed.filter((name) => !changeWrote.includes(name));
  const more = failedBeyondBase !== null && failedBeyondBase > 0 && verdict.blamed.length === 0;
  return {
    ...comparison,
    newFailures: verdict.blamed.length > 0 || more,
    failingNow: verdict.blamed,
    flaky: verdict.flaky,
    lines: [
      ...(other.length > 0 ? [`New failures (not failing on the base, and failing again when run again): ${other.join(', ')}`] : []),
      ...(own.length > 0 ? [`New failures of the change's own tests (never excused as flaky): ${own.join(', ')}`] : []),
      ...(verdict.flaky.length > 0
        ? [`Flaky, not blamed on the change (seen passing and failing on the same code): ${verdict.flaky.map((f) => `${f.name} (${f.evidence})`).join('; ')}`]
        : []),
      ...(more ? [`More tests fail than on the base, flaky ones aside (${failedBeyondBase} more).`] : []),
      ...lines,
    ],
  };
}
