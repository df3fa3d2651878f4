/**
 * The coverage matrix: each criterion, the tests that cite it and how they ended, and whether it is
 * proven — built by sopworks from the test round's real output (capabilities/coverage/), never by a
 * model. Its summary is what `done` waits for: every P0 criterion proven.
 */
import { z } from 'zod';
import { CriterionId, TEST_LISTING_RULE, TestCase } from './test-citations.ts';

/**
 * proven: a test citing it passed and none failed; failing: a test citing it failed; untested: no test
 * cites it (or those that do were skipped).
 */
export const CriterionStatus = z.enum(['proven', 'failing', 'untested']);

export const CriterionCoverage = z.object({
  id: CriterionId,
  text: z.string(),
  priority: z.enum(['P0', 'P1', 'P2']),
  status: CriterionStatus,
  tests: z.array(TestCase),
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
}

export function coverageSummary(coverage: Pick<Coverage, 'criteria'>): CoverageSummary {
  const p0 = coverage.criteria.filter((c) => c.priority === 'P0');
  return {
    proven: coverage.criteria.filter((c) => c.status === 'proven').length,
    total: coverage.criteria.length,
    p0Proven: p0.filter((c) => c.status === 'proven').length,
    p0Total: p0.length,
    unmet: p0.filter((c) => c.status !== 'proven').map((c) => ({ id: c.id, status: c.status })),
  };
}

/** "3 of 5 criteria proven (P0: 2 of 3; unmet: AC-4 untested)". */
export function describeCoverage(coverage: Pick<Coverage, 'criteria'>): string {
  const s = coverageSummary(coverage);
  const unmet = s.unmet.length > 0 ? `; unmet: ${s.unmet.map((u) => `${u.id} ${u.status}`).join(', ')}` : '';
  return `${s.proven} of ${s.total} criteria proven (P0: ${s.p0Proven} of ${s.p0Total}${unmet})`;
}

/** A coverage matrix in the one line a conclusion appends to its reason: what is proven, what is not, and why none could be. */
export function coverageLine(coverage: Coverage): string {
  const described = describeCoverage(coverage);
  return coverage.testsNamed === 0 ? `${described}; the test command's output names no test: ${TEST_LISTING_RULE}` : described;
}
