/**
 * The coverage matrix of one test round: for each criterion, the tests whose names cite it (as the
 * runner printed them, test-round/test-cases/) and whether that proves it — or, for a criterion no test
 * cites that QA declared manual, the review's verdict on it (manual-state.ts). Pure: the same criteria,
 * round and manual checks give the same matrix, on resume and on a replay.
 */
import {
  type Coverage,
  type Criterion,
  type CriterionStatus,
  citedCriteria,
  type ManualCheckState,
  type TestCase,
  type TestReport,
} from '../../documents/index.ts';

function statusOf(tests: readonly TestCase[], manual: ManualCheckState | undefined): CriterionStatus {
  if (tests.some((t) => t.outcome === 'failed')) return 'failing';
  if (tests.some((t) => t.outcome === 'passed')) return 'proven';
  // A test that names it decides it; without one, an accepted manual check proves it and a rejected one does not.
  if (manual?.verdict === 'accepted') return 'proven';
  return manual?.verdict === 'rejected' ? 'rejected' : 'untested';
}

export function buildCoverage(
  criteria: readonly Criterion[],
  round: Pick<TestReport, 'round' | 'cases'>,
  manual: ReadonlyMap<string, ManualCheckState> = new Map(),
): Coverage {
  const citing = (round.cases?.citing ?? []).map((test) => ({ test, ids: citedCriteria(test.name) }));
  const known = new Set(criteria.map((c) => c.id));
  return {
    round: round.round,
    criteria: criteria.map((criterion) => {
      const tests = citing.filter((c) => c.ids.includes(criterion.id)).map((c) => c.test);
      const check = manual.get(criterion.id);
      return { id: criterion.id, text: criterion.text, priority: criterion.priority, status: statusOf(tests, check), tests, manual: check ?? null };
    }),
    testsNamed: round.cases?.named ?? 0,
    strayCitations: citing.filter((c) => c.ids.some((id) => !known.has(id))).map((c) => ({ test: c.test.name, ids: c.ids.filter((id) => !known.has(id)) })),
  };
}
