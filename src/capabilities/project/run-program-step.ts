/**
 * The `runProgram` step: QA runs the program once on a smoke input, in the sandbox, after its tests
 * pass (src/sandbox/smoke-run.ts). The output is a test round of kind `smoke`, or null when the design
 * gives no command that runs as written (a library, or a run command with placeholders and no smoke
 * command): check it with the `isSet` guard before publishing it.
 */
import { fromPromise } from 'xstate';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import * as S from '../artifacts/schemas.ts';
import { commandRefusal } from '../policy/may-run.ts';
import { runSandboxed } from '../../host/sandbox/run-sandboxed.ts';
import { smokeCommandOf, smokeReport } from './smoke-run.ts';
import { withoutMachinePaths } from '../../host/sandbox/machine-paths.ts';
import type { RoleServices } from '../../engine/sop/services.ts';
import { resolveView } from '../artifacts/views.ts';
import type { StepInput } from '../../engine/steps/step-input.ts';

export const runProgramStep = {
  description:
    "Run the program once the way a user would — the design's smokeCommand, or its runCommand when it has no " +
    'placeholder — in the sandbox without network, if the policy lets this role run it. The output is a test round of ' +
    'kind `smoke` (failed on a crash, a time-out or a non-zero exit), or null when there is nothing to run (a library).',
  params: z.object({ timeoutMs: z.number().int().min(1000).default(60_000) }).strict(),
};

type Params = z.infer<typeof runProgramStep.params>;

export function runProgramActor(services: RoleServices) {
  return fromPromise<S.TestReport | null, StepInput<Params>>(async ({ input: { params, context } }) => {
    const design = S.Design.parse(resolveView('design', { context, board: services.board }));
    const command = smokeCommandOf(design);
    if (!command) return null;
    const refusal = commandRefusal(services.policy, services.profile.id, command);
    if (refusal) {
      throw new SopworksError('TEST_RUN_FAILED', `Refused to run the program: ${refusal}.`, {
        hint: `Change the design's smokeCommand, or edit ${services.policy.source} if this command is safe to run.`,
      });
    }
    await services.filesOnDisk();
    const round = services.board.all('TestReport').length + 1;
    services.report({ kind: 'tests-start', detail: `round ${round}: running the program: ${command.join(' ')}` });
    const { sandbox } = services;
    let outcome: Awaited<ReturnType<typeof runSandboxed>>;
    try {
      outcome = await runSandboxed({
        argv: command,
        projectDir: services.workspace.root,
        limits: { ...sandbox.limits, wallSeconds: Math.ceil(params.timeoutMs / 1000) },
        setting: sandbox.mode,
        allowUnsandboxed: sandbox.allowUnsandboxed,
        network: false,
        onNotice: (notice) => services.report({ kind: 'tests-start', detail: `round ${round}: ${notice}` }),
      });
    } catch (error) {
      services.report({ kind: 'tests-end', detail: `round ${round}: the program did not start` });
      throw error;
    }
    // What the report (and so QA's prompt) carries names no folder of this machine: `.` is the project.
    const report = smokeReport(round, command, { ...outcome, output: withoutMachinePaths(outcome.output, services.workspace.root) });
    services.report({ kind: 'tests-end', detail: `round ${round}: the program ${report.passed ? 'ran (passed)' : `failed: ${report.signature}`}` });
    return report;
  });
}
