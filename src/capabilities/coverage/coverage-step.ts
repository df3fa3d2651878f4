/** `coverage`: the coverage matrix of the latest test round (build-coverage.ts), from the board — no model. */
import { z } from 'zod';
import { Coverage, criteriaOf, type TestReport } from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { buildCoverage } from './build-coverage.ts';
import { manualStates } from './manual-state.ts';

export const coverage = defineStep({
  description:
    "Build the coverage matrix of the latest test round: each criterion of `of` (the view holding them: the PRD's acceptance criteria, AC-n; a change request's, and what it must keep working, KW-n) with the tests whose names cite its id, as the runner's output named them, and whether it is proven (a passing test, no failing one; without a test, a manual check the review accepted — ManualChecks, ManualVerdicts). No model is asked. The output is a Coverage.",
  params: z.object({ of: z.string().min(1).default('prd') }).strict(),
  output: Coverage,
  names: { views: ['of'] },
  async run({ params, view }, ports) {
    const criteria = criteriaOf(await view(params.of));
    if (criteria.length === 0) {
      throw new SopworksError('SOP_INVALID', `The coverage step's "${params.of}" holds no acceptance criteria.`, {
        hint: 'Give it the view of the PRD (of: prd) or of the change request (of: changeRequest).',
      });
    }
    const rounds = ports.board.all<TestReport>('TestReport').filter((m) => (m.payload.kind ?? 'tests') === 'tests');
    const round = rounds.at(-1)?.payload;
    if (!round)
      throw new SopworksError('SOP_INVALID', 'The coverage step needs a test round on the board first.', {
        hint: 'Put it after runTests and the TestReport it publishes.',
      });
    return buildCoverage(criteria, round, manualStates(ports.board));
  },
});
