/** `runBaseTests`: a change run's first test round, of the repository's existing tests on the base, before any change (base-tests.ts). */
import { z } from 'zod';
import * as C from '../../documents/index.ts';
import { ownRecordLine } from '../../engine/board/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { ownInstallScripts } from '../../host/install/index.ts';
import { readProjectRunners } from '../../host/runners/index.ts';
import { type InstallFacts, runBaseTests as runOnBase } from './base-tests.ts';

export const runBaseTests = defineStep({
  description:
    "Run the repository's existing tests on the base, before any code is written — the design delta's build command first when it names one, then its test command, in the sandbox, in the " +
    'work tree (with what an installDependencies step kept in the slot `install` put there) — so failures that were there already are known ' +
    'and not blamed on the change. A repository without tests is said so (`ran: false`); a runner that could not start (not installed, a failed ' +
    'install, no test file it could load) is said with its command and the line that explains it (`runner.started: false`). After a failed ' +
    'install the tests still run: when some pass without it, the change goes on and `runner.line` says what they ran without.',
  params: z
    .object({
      timeoutMs: z.number().int().min(1000).default(120_000),
      design: z.string().min(1).default('designDelta'),
      install: z.string().min(1).nullable().default(null),
    })
    .strict(),
  output: C.BaselineTests,
  async run({ params, view, context }, ports) {
    const map = ports.board.latest<C.RepositoryMap>('RepositoryMap')?.payload;
    if (!map) throw new SopworksError('SOP_INVALID', 'runBaseTests needs the RepositoryMap on the board (a change run publishes it first).');
    const design = C.DesignDelta.pick({ testCommand: true, buildCommand: true }).parse(await view(params.design));
    const { report } = ports.run;
    if (!map.hasTests) {
      report({ kind: 'tests-start', detail: 'base: the repository has no tests; QA writes the first ones' });
      return noTests(design.testCommand);
    }
    const install = params.install ? (context.slots[params.install] as InstallFacts | undefined) : undefined;
    const { repository } = ports;
    // The documents committed so far are in the work tree before the tests look at it.
    await repository.filesOnDisk();
    const runners = await readProjectRunners(repository.root);
    const refusal = ports.policy.commandRefusal(ports.role.profile.id, design.testCommand, { runners, declared: map.tests.commands });
    if (refusal) {
      throw new SopworksError('TEST_RUN_FAILED', `Refused to run the design's test command on the base: ${refusal}`, {
        hint: `Change the design's test command, or edit ${ports.policy.source} if this command is safe to run.`,
      });
    }
    const buildRefusal = design.buildCommand
      ? ports.policy.commandRefusal(ports.role.profile.id, design.buildCommand, { runners, declared: map.tests.builds })
      : null;
    if (buildRefusal) {
      throw new SopworksError('TEST_RUN_FAILED', `Refused to run the design's build command on the base: ${buildRefusal}`, {
        hint: `Change the design's build command, or edit ${ports.policy.source} if this command is safe to run.`,
      });
    }
    const baseline = await ports.run.trackWork(() =>
      runOnBase({
        root: repository.root,
        command: design.testCommand,
        build: design.buildCommand ?? null,
        declaredBuilds: map.tests.builds,
        runners,
        timeoutSeconds: Math.ceil(params.timeoutMs / 1000),
        sandbox: ports.sandbox,
        install: install ?? null,
        // What the package manager would have run of the repository's own package.json, had install scripts been on.
        ownScriptsOff: install?.passed && !ports.policy.dependencies.scripts ? ownInstallScripts(repository.root) : [],
        progress: (event) => report(event),
        acceptRecordLine: ownRecordLine(ports.board),
        holdCommits: (work) => repository.withCommitsHeld(work),
      }),
    );
    if (!baseline.runner.started) report({ kind: 'tests-end', detail: `base: ${baseline.runner.line}`, passed: false });
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
  runner: { started: true, line: null },
});
