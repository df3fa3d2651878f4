/** `runBaseTests`: a change run's first test round, of the repository's existing tests on the base, before any change (base-tests.ts). */
import { z } from 'zod';
import * as C from '../../documents/change-schemas.ts';
import { SopworksError } from '../../ground/errors.ts';
import { defineStep } from '../../engine/steps/step.ts';
import { configuredRegistries } from '../../host/install/registries.ts';
import { runBaseTests as runOnBase } from './base-tests.ts';

export const runBaseTests = defineStep({
  description:
    "Run the repository's existing tests on the base, before any change — the design delta's test command, in the sandbox, in a copy of the base " +
    "commit's tree — so failures that were there already are known and not blamed on the change. A repository without tests is said so (`ran: false`).",
  params: z.object({ timeoutMs: z.number().int().min(1000).default(120_000), design: z.string().min(1).default('designDelta') }).strict(),
  output: C.BaselineTests,
  async run({ params, view }, ports) {
    const map = ports.board.latest<C.RepositoryMap>('RepositoryMap')?.payload;
    if (!map) throw new SopworksError('SOP_INVALID', 'runBaseTests needs the RepositoryMap on the board (a change run publishes it first).');
    const design = C.DesignDelta.pick({ testCommand: true }).parse(view(params.design));
    const { report } = ports.run;
    if (!map.hasTests) {
      report({ kind: 'tests-start', detail: 'base: the repository has no tests; QA writes the first ones' });
      return noTests(design.testCommand);
    }
    const refusal = ports.policy.commandRefusal(ports.role.profile.id, design.testCommand);
    if (refusal) {
      throw new SopworksError('TEST_RUN_FAILED', `Refused to run the design's test command on the base: ${refusal}.`, {
        hint: `Change the design's test command, or edit ${ports.policy.source} if this command is safe to run.`,
      });
    }
    report({ kind: 'tests-start', detail: `base ${map.base.slice(0, 12)}: ${design.testCommand.join(' ')}` });
    const baseline = await runOnBase({
      root: ports.repository.root,
      base: map.base,
      command: design.testCommand,
      timeoutSeconds: Math.ceil(params.timeoutMs / 1000),
      sandbox: ports.sandbox,
      install: {
        enabled: ports.policy.dependencies.install,
        network: ports.policy.dependencies.network,
        registries: configuredRegistries(ports.policy.dependencies.registries, ports.policy.source),
      },
      notice: (notice) => report({ kind: 'tests-start', detail: `base: ${notice}` }),
    });
    const counts = baseline.counts ? ` (${baseline.counts.passed} passed, ${baseline.counts.failed} failed)` : '';
    report({ kind: 'tests-end', detail: `base: ${baseline.passed ? 'passed' : 'FAILED before the change'}${counts}`, passed: baseline.passed });
    return baseline;
  },
});

/** The baseline of a repository without tests: nothing ran, nothing failed. */
const noTests = (command: string[]): C.BaselineTests => ({
  round: 1,
  command,
  passed: true,
  exitCode: null,
  timedOut: false,
  counts: null,
  failures: [],
  signature: 'no tests',
  output: '',
  sandbox: null,
  ran: false,
});
