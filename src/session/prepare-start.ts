/**
 * A new project's run, prepared: the spec and the instructions read, the name and folder checked, the
 * company, its policy and the model loaded and checked, whether generated code can run here — everything
 * a start may be refused for, before anything is written.
 */
import { loadScenario, parseLlmFlag } from '../capabilities/model/index.ts';
import { readInstructionsFile, startRun } from '../company/index.ts';
import { checkProjectDir, makeWayForProject } from '../engine/run/index.ts';
import { checkProjectName, projectNameFromSpec } from '../ground/files/index.ts';
import { type PreparedRun, settingsOf } from './execute.ts';
import type { SessionHooks } from './hooks.ts';
import { chaosOf, withChaos } from './model-choice.ts';
import { parseRequest } from './parse-request.ts';
import { gatesOf, prepareCompany } from './prepare-company.ts';
import { checkSpec, readSpecInput } from './spec-input.ts';
import { StartAsk } from './start-ask.ts';

export async function prepareStart(asked: StartAsk, hooks: SessionHooks): Promise<PreparedRun> {
  const ask = parseRequest(StartAsk, asked, 'run');
  const gates = gatesOf(ask.approve, 'run');
  const settings = settingsOf(hooks);
  const choice = withChaos(parseLlmFlag(ask.llm, settings), chaosOf(ask));
  const given = await readSpecInput({ given: ask.spec, file: ask.specFile, readStdin: hooks.readStdin });
  const instructions = ask.instructions === undefined ? (ask.instructionsText ?? null) : await readInstructionsFile(ask.instructions);
  const scenario = choice.kind === 'scripted' ? await loadScenario(choice.file) : null;

  // A spec given (on the command line, in a file, on standard input), even an empty one, is the spec: a
  // blank one is refused, not silently replaced by the scenario's.
  const spec = checkSpec((given ?? scenario?.spec ?? '').trim(), 'run');
  const name = checkProjectName(ask.name ?? scenario?.name ?? projectNameFromSpec(spec));
  const { company, policy, provider, llm, budget } = await prepareCompany(ask, { choice, scenario, settings, text: spec }, hooks);
  const folder = await checkProjectDir(ask.out, name, ask.force);
  return {
    command: 'run',
    projectDir: folder.projectDir,
    provider,
    llm,
    settings,
    flags: ask,
    next: [],
    after: [],
    start: async (basics, { lines }) =>
      startRun({
        ...basics,
        spec,
        project: name,
        instructions,
        projectDir: await makeWayForProject(folder, (line) => lines.err(line)),
        company,
        provider,
        llm,
        policy,
        concurrency: ask.concurrency ?? undefined,
        engineers: ask.engineers ?? undefined,
        until: ask.until ?? null,
        budget,
        approvals: { gates, yes: ask.yes, clarify: ask.clarify },
      }),
  };
}
