/**
 * The coverage matrix of one test round: for each criterion, the tests whose names cite it (as the
 * runner printed them, test-round/test-cases/) and whether that proves it. Pure: the same criteria and
 * the same round give the same matrix, on resume and on a replay.
 */
import { type Coverage, type Criterion, type CriterionStatus, citedCriteria, type TestCase, type TestReport } from '../../documents/index.ts';

function statusOf(tests: readonly TestCase[]): CriterionStatus {
  if (tests.some((t) => t.outcome === 'failed')) return 'failing';
  return tests.some((t) => t.outcome === 'passed') ? 'proven' : 'untested';
}

export function buildCoverage(criteria: readonly Criterion[], round: Pick<TestReport, 'round' | 'cases'>): Coverage {
  const citing = (round.cases?.citing ?? []).map((test) => ({ test, ids: citedCriteria(test.name) }));
  const known = new Set(criteria.map((c) => c.id));
  return {
    round: round.round,
    criteria: criteria.map((criterion) => {
      const tests = citing.filter((c) => c.ids.includes(criterion.id)).map((c) => c.test);
      return { id: criterion.id, text: criterion.text, priority: criterion.priority, status: statusOf(tests), tests };
    }),
    testsNamed: round.cases?.named ?? 0,
    strayCitations: citing.filter((c) => c.ids.some((id) => !known.has(id))).map((c) => ({ test: c.test.name, ids: c.ids.filter((id) => !known.has(id)) })),
  };
}
