/** `runTests`: a test round (test-round.ts) of the design's test command, if the policy lets the role run it. */
import { z } from 'zod';
import * as S from '../../documents/index.ts';
import { ownRecordLine } from '../../engine/board/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { localCommand, readProjectRunners } from '../../host/runners/index.ts';
import { runTestRound } from './test-round.ts';

export const runTests = defineStep({
  description:
    "Run the design's test command in the sandbox (docs/sandbox.md) — after a change design's `buildCommand` when it names one, in the same sandbox — without network, with a wall-clock limit, if the policy " +
    'lets this role run it (dependencies come from an installDependencies step before it); the output is a TestReport. ' +
    'unittest, pytest and go test are run with -v, so that their output names each test for the coverage matrix. ' +
    '`design` names the view or slot whose test command is run (a change run: designDelta). `leftovers: remove` removes ' +
    "what the runner left outside the committed tree (a change run's branch); the default keeps it (a new project's build output).",
  params: z
    .object({
      timeoutMs: z.number().int().min(1000).default(120_000),
      design: z.string().min(1).default('design'),
      leftovers: z.enum(['keep', 'remove']).default('keep'),
    })
    .strict(),
  output: S.TestReport,
  async run({ params, view }, ports) {
    const design = S.Design.parse(await view(params.design));
    // A change's design may name the repository's own build, run before the tests each round (build-first.ts).
    const build = S.DesignDelta.pick({ buildCommand: true }).safeParse(await view(params.design)).data?.buildCommand ?? null;
    const round = ports.board.all('TestReport').length + 1;
    const { repository } = ports;
    // The code and tests just posted may still be on their way into the repository.
    await repository.filesOnDisk();
    const runners = await readProjectRunners(repository.root);
    const refusal = ports.policy.commandRefusal(ports.role.profile.id, design.testCommand, { runners });
    const local = refusal ? null : localCommand(design.testCommand, runners);
    if (refusal || !local || 'refused' in local) {
      throw new SopworksError(
        'TEST_RUN_FAILED',
        `Refused to run the design's test command: ${refusal ?? (local && 'refused' in local ? local.refused : '')}.`,
        {
          hint: `Change the design's test command, or edit ${ports.policy.source} if this command is safe to run.`,
        },
      );
    }
    const buildRefusal = build ? ports.policy.commandRefusal(ports.role.profile.id, build, { runners }) : null;
    const buildLocal = build && !buildRefusal ? localCommand(build, runners) : null;
    if (build && (buildRefusal || !buildLocal || 'refused' in buildLocal)) {
      throw new SopworksError(
        'TEST_RUN_FAILED',
        `Refused to run the design's build command: ${buildRefusal ?? (buildLocal && 'refused' in buildLocal ? buildLocal.refused : '')}.`,
        { hint: `Change the design's build command, or edit ${ports.policy.source} if this command is safe to run.` },
      );
    }
    // Counted as a whole: its progress lines (an install, a build, notices, a sandbox line) are not one start and one end.
    return ports.run.trackWork(() =>
      runTestRound({
        build: build && buildLocal && 'argv' in buildLocal ? { command: build, runAs: buildLocal.argv } : null,
        round,
        testCommand: design.testCommand,
        runAs: local.argv,
        projectDir: repository.root,
        timeoutMs: params.timeoutMs,
        sandbox: ports.sandbox,
        progress: (event) => ports.run.report(event),
        acceptRecordLine: ownRecordLine(ports.board),
        holdCommits: (work) => repository.withCommitsHeld(work),
        removeLeftovers: params.leftovers === 'remove',
      }),
    );
  },
});
