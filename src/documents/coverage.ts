/**
 * The coverage matrix: each criterion, the tests that cite it and how they ended, and whether it is
 * proven — built by sopworks from the test round's real output (capabilities/coverage/), never by a
 * model. Its summary is what `done` waits for: every P0 criterion proven.
 */
import { z } from 'zod';
import { ManualVerdictKind } from './manual-checks.ts';
import { CriterionId, TEST_LISTING_RULE, TestCase } from './test-citations.ts';

/**
 * proven: a test citing it passed and none failed, or — no test citing it — its manual check was accepted;
 * failing: a test citing it failed; rejected: no test cites it and its manual check was rejected; untested:
 * no test cites it (or those that do were skipped) and no manual check decided it.
 */
export const CriterionStatus = z.enum(['proven', 'failing', 'rejected', 'untested']);

/**
 * A criterion QA declared manual (manual-checks.ts), and the review's verdict on the files as they are now:
 * null while none is given, or once a file it read has changed since (the Engineer fixed it).
 */
export const ManualCheckState = z.object({
  reason: z.string(),
  artifacts: z.array(z.string()),
  lookFor: z.string(),
  verdict: ManualVerdictKind.nullable(),
  verdictReason: z.string().nullable(),
});
export type ManualCheckState = z.infer<typeof ManualCheckState>;

export const CriterionCoverage = z.object({
  id: CriterionId,
  text: z.string(),
  priority: z.enum(['P0', 'P1', 'P2']),
  status: CriterionStatus,
  tests: z.array(TestCase),
  /** Its manual check, when QA declared it one (absent from matrices built before manual checks). */
  manual: ManualCheckState.nullable().default(null),
});

export const Coverage = z.object({
  /** The test round whose output it was read from. */
  round: z.number().int().min(1),
  criteria: z.array(CriterionCoverage),
  /** How many tests the round's output named: none means the runner does not list them (pytest -q, go test without -v). */
  testsNamed: z.number().int().min(0),
  /** Tests citing an id that is no criterion of the run (a typo, a criterion dropped from the PRD). */
  strayCitations: z.array(z.object({ test: z.string(), ids: z.array(z.string()) })),
});

export type CriterionStatus = z.infer<typeof CriterionStatus>;
export type CriterionCoverage = z.infer<typeof CriterionCoverage>;
export type Coverage = z.infer<typeof Coverage>;

export interface CoverageSummary {
  proven: number;
  total: number;
  p0Proven: number;
  p0Total: number;
  /** The P0 criteria not proven, with their status. */
  unmet: { id: string; status: CriterionStatus }[];
  /** The criteria checked by a person's reading instead of a test, and the review's verdict (awaiting: none yet on the files as they are). */
  manual: { id: string; verdict: ManualVerdictKind | 'awaiting'; reason: string | null }[];
}

/** A criterion's coverage, as read from a matrix built before manual checks too (no `manual`). */
type CriterionLike = Omit<CriterionCoverage, 'manual'> & { manual?: ManualCheckState | null };

export function coverageSummary(coverage: { criteria: readonly CriterionLike[] }): CoverageSummary {
  const p0 = coverage.criteria.filter((c) => c.priority === 'P0');
  return {
    proven: coverage.criteria.filter((c) => c.status === 'proven').length,
    total: coverage.criteria.length,
    p0Proven: p0.filter((c) => c.status === 'proven').length,
    p0Total: p0.length,
    unmet: p0.filter((c) => c.status !== 'proven').map((c) => ({ id: c.id, status: c.status })),
    manual: coverage.criteria.flatMap((c) =>
      c.manual && c.tests.length === 0 ? [{ id: c.id, verdict: c.manual.verdict ?? 'awaiting', reason: c.manual.verdictReason }] : [],
    ),
  };
}

/** "; manual: AC-4 accepted, AC-5 rejected", or nothing when no criterion is checked by reading. */
export const describeManual = (manual: CoverageSummary['manual'] | undefined): string =>
  manual && manual.length > 0 ? `; manual: ${manual.map((m) => `${m.id} ${m.verdict}`).join(', ')}` : '';

/** "3 of 5 criteria proven (P0: 2 of 3; unmet: AC-4 untested; manual: AC-5 accepted)". */
export function describeCoverage(coverage: { criteria: readonly CriterionLike[] }): string {
  const s = coverageSummary(coverage);
  const unmet = s.unmet.length > 0 ? `; unmet: ${s.unmet.map((u) => `${u.id} ${u.status}`).join(', ')}` : '';
  return `${s.proven} of ${s.total} criteria proven (P0: ${s.p0Proven} of ${s.p0Total}${unmet}${describeManual(s.manual)})`;
}

/** A coverage matrix in the one line a conclusion appends to its reason: what is proven, what is not, and why none could be. */
export function coverageLine(coverage: Coverage): string {
  const described = describeCoverage(coverage);
  return coverage.testsNamed === 0 ? `${described}; the test command's output names no test: ${TEST_LISTING_RULE}` : described;
}
