/**
 * `checkTestCommand`: a change's design delta's test command against the policy, as soon as the
 * Architect writes it — before any task, install or test — so that a command the policy refuses goes
 * back to the step that can change it (the design), with the forms that are allowed: the repository's
 * own declared commands (its map's), its scripts and installed binaries, the policy's prefixes.
 */
import { z } from 'zod';
import * as C from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { readProjectRunners } from '../../host/runners/index.ts';

export const checkTestCommand = defineStep({
  description:
    "Check the test command of `design` (default designDelta) against the policy: the `tester` role (default qa) may run it — a command of its `run` list, or, with `runInstalled`, a runner of the repository's own package.json scripts and of its dependencies' binaries (`npx vitest run`, `npm run test:unit`) — and it installs nothing. Fails with the refusal, which names the forms that are allowed, the repository's declared test commands first.",
  params: z
    .object({
      design: z.string().min(1).default('designDelta'),
      tester: z.string().min(1).default('qa'),
    })
    .strict(),
  output: z.void(),
  async run({ params, view }, ports) {
    const design = C.DesignDelta.pick({ testCommand: true }).parse(await view(params.design));
    const map = ports.board.latest<C.RepositoryMap>('RepositoryMap')?.payload;
    const runners = await readProjectRunners(ports.repository.root);
    const refusal = ports.policy.commandRefusal(params.tester, design.testCommand, { runners, declared: map?.tests.commands ?? [] });
    if (refusal) throw new SopworksError('TEST_RUN_FAILED', `The design's test command \`${design.testCommand.join(' ')}\` is refused: ${refusal}`);
  },
});
