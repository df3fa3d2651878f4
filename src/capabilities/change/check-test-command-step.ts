/**
 * `checkTestCommand`: a change's design delta's test command — and its build command, which runs before
 * the tests in the same sandbox — against the policy, as soon as the Architect writes it — before any task, install or test — so that a command the policy refuses goes
 * back to the step that can change it (the design), with the forms that are allowed: the repository's
 * own declared commands (its map's), its scripts and installed binaries, the policy's prefixes.
 */
import { z } from 'zod';
import * as C from '../../documents/index.ts';
import { type CommandContext, defineStep, type Ports } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { readProjectRunners } from '../../host/runners/index.ts';

/** What a command is judged against besides the policy: the repository's tools, and the test commands (or build steps) its map declares. */
async function contextOf(ports: Ports, of: 'commands' | 'builds' = 'commands'): Promise<CommandContext> {
  const map = ports.board.latest<C.RepositoryMap>('RepositoryMap')?.payload;
  return { runners: await readProjectRunners(ports.repository.root), declared: map?.tests[of] ?? [] };
}

export const checkTestCommand = defineStep({
  description:
    "Check the test command of `design` (default designDelta), and its build command when it has one, against the policy: the `tester` role (default qa) may run it — a command of its `run` list, or, with `runInstalled`, a runner of the repository's own package.json scripts and of its dependencies' binaries (`npx vitest run`, `npm run test:unit`) — and it installs nothing. Fails with the refusal, which names the forms that are allowed, the repository's declared test commands first.",
  params: z
    .object({
      design: z.string().min(1).default('designDelta'),
      tester: z.string().min(1).default('qa'),
    })
    .strict(),
  output: z.void(),
  // The same forms the refusal names, from the same repository: what the design step is told.
  rules: async ({ params }, ports) => [
    `\`testCommand\` is run by ${params.tester} from the repository root: ${ports.policy.runRule(params.tester, await contextOf(ports)).text}`,
    `\`buildCommand\`, when not null, is run by ${params.tester} the same way, in the same sandbox, before the tests: the same forms are allowed (a build step the map lists, such as \`npm run build\`), and it too installs nothing.`,
  ],
  async run({ params, view }, ports) {
    const design = C.DesignDelta.pick({ testCommand: true, buildCommand: true }).parse(await view(params.design));
    const refusal = ports.policy.commandRefusal(params.tester, design.testCommand, await contextOf(ports));
    if (refusal) throw new SopworksError('TEST_RUN_FAILED', `The design's test command \`${design.testCommand.join(' ')}\` is refused: ${refusal}`);
    const build = design.buildCommand ? ports.policy.commandRefusal(params.tester, design.buildCommand, await contextOf(ports, 'builds')) : null;
    if (build && design.buildCommand)
      throw new SopworksError('TEST_RUN_FAILED', `The design's build command \`${design.buildCommand.join(' ')}\` is refused: ${build}`);
  },
});
