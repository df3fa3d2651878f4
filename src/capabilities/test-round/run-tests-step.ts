/** `runTests`: a test round (sandbox/test-round.ts) of the design's test command, if the policy lets the role run it. */
import { fromPromise } from 'xstate';
import { z } from 'zod';
import * as S from '../../documents/schemas.ts';
import { SopworksError } from '../../ground/errors.ts';
import { commandRefusal } from '../policy/may-run.ts';
import { ownRecordLine } from '../../engine/board/own-record-line.ts';
import { runTestRound } from './test-round.ts';
import type { RoleServices } from '../../engine/sop/services.ts';
import { resolveView } from '../artifacts/views.ts';
import type { VocabularyEntry } from '../../engine/steps/actions.ts';
import { scopeOf, type Params, type StepInput } from '../../engine/steps/step.ts';

export const runTests = {
  description:
    "Run the design's test command in the sandbox (docs/sandbox.md), without network, with a wall-clock limit, if the policy " +
    'lets this role run it (dependencies come from an installDependencies step before it); the output is a TestReport. ' +
    '`design` names the view or slot whose test command is run (a change run: designDelta).',
  params: z.object({ timeoutMs: z.number().int().min(1000).default(120_000), design: z.string().min(1).default('design') }).strict(),
} satisfies VocabularyEntry;

export const runTestsActor = (services: RoleServices) =>
  fromPromise<S.TestReport, StepInput<Params<typeof runTests>>>(async ({ input: { params, context } }) => {
    const design = S.Design.parse(resolveView(params.design, scopeOf(services, context)));
    const round = services.board.all('TestReport').length + 1;
    const refusal = commandRefusal(services.policy, services.profile.id, design.testCommand);
    if (refusal) {
      throw new SopworksError('TEST_RUN_FAILED', `Refused to run the design's test command: ${refusal}.`, {
        hint: `Change the design's test command, or edit ${services.policy.source} if this command is safe to run.`,
      });
    }
    // The code and tests just posted may still be on their way into the repository.
    await services.filesOnDisk();
    // Counted as a whole: its progress lines (an install, notices, a sandbox line) are not one start and one end.
    return services.trackWork(() =>
      runTestRound({
        round,
        testCommand: design.testCommand,
        projectDir: services.workspace.root,
        timeoutMs: params.timeoutMs,
        sandbox: services.sandbox,
        progress: (kind, detail) => services.report({ kind, detail }),
        acceptRecordLine: ownRecordLine(services.board),
        holdCommits: (work) => services.workspace.withCommitsHeld(work),
      }),
    );
  });
