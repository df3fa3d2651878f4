/**
 * The `runProgram` step: QA runs the program once on a smoke input, in the sandbox, after its tests
 * pass (src/capabilities/project/smoke-run.ts). The output is a test round of kind `smoke`, or null when the design
 * gives no command that runs as written (a library, or a run command with placeholders and no smoke
 * command): check it with the `isSet` guard before publishing it.
 */
import { z } from 'zod';
import * as S from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { runSandboxed, withoutMachinePaths } from '../../host/sandbox/index.ts';
import { smokeReport } from './smoke-run.ts';

export const runProgram = defineStep({
  description:
    "Run the program once the way a user would — the design's smokeCommand, or its runCommand when it has no " +
    'placeholder — in the sandbox without network, if the policy lets this role run it. The output is a test round of ' +
    'kind `smoke` (failed on a crash, a time-out or a non-zero exit), or null when there is nothing to run (a library).',
  params: z.object({ timeoutMs: z.number().int().min(1000).default(60_000) }).strict(),
  output: S.TestReport.nullable(),
  async run({ params, view }, ports) {
    const design = S.Design.parse(await view('design'));
    const command = S.smokeCommandOf(design);
    if (!command) return null;
    const refusal = ports.policy.commandRefusal(ports.role.profile.id, command);
    if (refusal) {
      throw new SopworksError('TEST_RUN_FAILED', `Refused to run the program: ${refusal}.`, {
        hint: `Change the design's smokeCommand, or edit ${ports.policy.source} if this command is safe to run.`,
      });
    }
    await ports.repository.filesOnDisk();
    const round = ports.board.all('TestReport').length + 1;
    const { report } = ports.run;
    report({ kind: 'tests-start', detail: `round ${round}: running the program: ${command.join(' ')}` });
    const { sandbox } = ports;
    let outcome: Awaited<ReturnType<typeof runSandboxed>>;
    try {
      // The sandbox compares the repository's git metadata before and after: no commit lands meanwhile.
      outcome = await ports.repository.withCommitsHeld(() =>
        runSandboxed({
          argv: command,
          projectDir: ports.repository.root,
          limits: { ...sandbox.limits, wallSeconds: Math.ceil(params.timeoutMs / 1000) },
          setting: sandbox.mode,
          allowUnsandboxed: sandbox.allowUnsandboxed,
          onNotice: (notice) => report({ kind: 'tests-start', detail: `round ${round}: ${notice}` }),
        }),
      );
    } catch (error) {
      report({ kind: 'tests-end', detail: `round ${round}: the program did not start`, passed: false });
      throw error;
    }
    // What the report (and so QA's prompt) carries names no folder of this machine: `.` is the project.
    const smoke = smokeReport(round, command, { ...outcome, output: withoutMachinePaths(outcome.output, ports.repository.root) });
    report({ kind: 'tests-end', detail: `round ${round}: the program ${smoke.passed ? 'ran (passed)' : `failed: ${smoke.signature}`}`, passed: smoke.passed });
    return smoke;
  },
});
