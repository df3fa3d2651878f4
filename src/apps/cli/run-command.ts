/** `sopworks run`: parse and check the input, run the company, print progress and a summary. */
import { z } from 'zod';
import { readSettings } from '../../capabilities/model/index.ts';
import { loadCompany } from '../../company/index.ts';
import { formatDiagnostic } from '../../engine/sop/index.ts';
import { prepareProjectDir } from '../../engine/run/index.ts';
import { checkProjectName, projectNameFromSpec } from '../../ground/files/index.ts';
import { parseLlmFlag } from '../../capabilities/model/index.ts';
import { loadScenario } from '../../capabilities/model/index.ts';
import type { Output } from './output.ts';
import type { GivenText } from '../eval/index.ts';
import { checkSpec, readSpecInput } from './spec-input.ts';
import { readInstructionsFile } from '../../company/index.ts';
import { parseOptions, positiveInteger, wholeNumberIn } from './parse-options.ts';
import { StartFlags } from './run-flags.ts';
import { openRunSession, startInSession } from './run-session.ts';
import { roleModels } from './role-models.ts';
import { loadPolicy } from '../../capabilities/policy/index.ts';
import { refuseUnsandboxableAtStart } from '../../host/sandbox/index.ts';
import { sandboxSettings } from '../../host/sandbox/index.ts';
import { dependencyRegistries } from '../../capabilities/project/index.ts';
import { checkClarify, checkUntil } from '../../engine/run/index.ts';
import { chaosOf, withChaos } from './chaos-option.ts';

export /** More Engineers than this only adds names: the files in progress are capped by --concurrency anyway. */
const MAX_ENGINEERS = 16;

const RunOptions = z.object({
  ...StartFlags,
  concurrency: positiveInteger('files at once'),
  engineers: wholeNumberIn(1, MAX_ENGINEERS),
  modelFor: z.array(z.string()).default([]),
  /** Stop after this point (a SOP's stopAt: prd, design, tasks in the default company), outcome paused. */
  until: z.string().trim().min(1).optional(),
});
export type RunOptions = z.infer<typeof RunOptions>;

/** `handed.instructions`: the instructions as text (a queued run's), when no --instructions file is named. */
export async function runCommand(specWords: string[], rawOptions: unknown, terminal: Output, handed?: GivenText): Promise<number> {
  const options = parseOptions(RunOptions, rawOptions, 'run');
  const session = openRunSession('run', options, terminal);
  const io = session.output.human;
  const settings = readSettings();
  const choice = withChaos(parseLlmFlag(options.llm, settings), chaosOf(options));
  const given = await readSpecInput({ words: specWords, file: options.specFile });
  const instructions = options.instructions === undefined ? (handed?.instructions ?? null) : await readInstructionsFile(options.instructions);
  const scenario = choice.kind === 'scripted' ? await loadScenario(choice.file) : null;

  // A spec given (on the command line, in a file, on standard input), even an empty one, is the spec: a
  // blank one is refused, not silently replaced by the scenario's.
  const spec = checkSpec((given ?? scenario?.spec ?? '').trim(), 'run');
  const name = checkProjectName(options.name ?? scenario?.name ?? projectNameFromSpec(spec));
  // Whether any generated code could run here: probed while the company loads, refused before anything is written.
  const sandboxCheck = refuseUnsandboxableAtStart(sandboxSettings(settings.sandbox, options.allowUnsandboxed));
  const company = await loadCompany(options.sops, options.roles);
  for (const warning of company.warnings) io.err(formatDiagnostic(warning));
  checkUntil(company, options.until);
  checkClarify(company, options.clarify);
  const policy = await loadPolicy(options.sops);
  // A registry set to something that is not a URL is refused now, before anything is written.
  dependencyRegistries(policy);
  const budget = { usd: options.budget, tokens: options.maxTokens };
  const { provider, llm } = await roleModels(
    { choice, scenario, settings, model: options.model, company, roles: company.roles, modelFor: options.modelFor, spec, budget },
    io,
  );
  const unsandboxable = await sandboxCheck;
  if (unsandboxable) throw unsandboxable;
  const projectDir = await prepareProjectDir(options.out, name, options.force, (line) => io.err(line));
  return startInSession(
    session,
    settings,
    { spec, project: name, instructions, projectDir, company, provider, llm, policy },
    { concurrency: options.concurrency ?? undefined, engineers: options.engineers ?? undefined, until: options.until ?? null },
  );
}
