/** `sopworks run`: parse and check the input, run the company, print progress and a summary. */
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import { readSettings } from '../../capabilities/model/settings.ts';
import { loadCompany } from '../../company/load-company.ts';
import { formatDiagnostic } from '../../engine/sop/diagnostic.ts';
import { prepareProjectDir } from '../../engine/run/prepare-project.ts';
import { checkProjectName, projectNameFromSpec } from '../../ground/files/project-name.ts';
import { startRun } from '../../company/start-run.ts';
import { createProviderForRoles, parseLlmFlag } from '../../capabilities/model/select-provider.ts';
import { parseModelFor } from '../../capabilities/model/role-model.ts';
import { loadScenario } from '../../capabilities/model/scenario.ts';
import type { Output } from './output.ts';
import type { GivenText } from '../eval/run-commands.ts';
import { readSpecInput } from './spec-input.ts';
import { readInstructionsFile } from '../../company/project-instructions.ts';
import { GATES, type Gate } from '../../capabilities/approvals/approval-desk.ts';
import { providerHooks } from './provider-hooks.ts';
import { parseOptions, positiveInteger, positiveNumber, wholeNumberIn, duration } from './parse-options.ts';
import { checkBudgetPrices, priceOf } from './price-of.ts';
import { openRunSession, requestOfSettings, runInSession } from './run-session.ts';
import type { LlmRecord } from '../../company/run-record.ts';
import { loadPolicy } from '../../capabilities/policy/load-policy.ts';
import { refuseUnsandboxableAtStart } from '../../host/sandbox/early-refusal.ts';
import { sandboxSettings } from '../../host/sandbox/sandbox-settings.ts';
import { dependencyRegistries } from '../../capabilities/project/dependency-registries.ts';
import { llmRecordOf } from './llm-record.ts';
import { checkUntil } from '../../engine/run/until-check.ts';
import { ChaosOptions, chaosOf, withChaos } from './chaos-option.ts';
import { sopPrompts } from '../../company/sop-prompts.ts';

export /** More Engineers than this only adds names: the files in progress are capped by --concurrency anyway. */
const MAX_ENGINEERS = 16;

const RunOptions = z.object({
  approve: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return [];
      const gates = v
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean);
      const unknown = gates.filter((g) => !(GATES as readonly string[]).includes(g));
      if (unknown.length > 0 || gates.length === 0) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown gate ${unknown.map((g) => `"${g}"`).join(', ') || '(none)'}; use a comma list of ${GATES.join(', ')}`,
        });
        return z.NEVER;
      }
      return gates as Gate[];
    }),
  yes: z.boolean().default(false),
  budget: positiveNumber('US dollars'),
  maxTokens: positiveInteger('tokens'),
  maxTime: duration(),
  concurrency: positiveInteger('files at once'),
  engineers: wholeNumberIn(1, MAX_ENGINEERS),
  record: z.string().min(1).optional(),
  name: z.string().optional(),
  out: z.string().min(1),
  llm: z.string().optional(),
  model: z.string().min(1).optional(),
  modelFor: z.array(z.string()).default([]),
  force: z.boolean().default(false),
  allowUnsandboxed: z.boolean().default(false),
  sops: z.string().min(1),
  roles: z.string().min(1),
  specFile: z.string().min(1).optional(),
  instructions: z.string().min(1).optional(),
  json: z.boolean().default(false),
  /** Stop after this point (a SOP's stopAt: prd, design, tasks in the default company), outcome paused. */
  until: z.string().trim().min(1).optional(),
  ...ChaosOptions,
});
export type RunOptions = z.infer<typeof RunOptions>;

const MAX_SPEC = 4000;

/** `handed.instructions`: the instructions as text (a queued run's), when no --instructions file is named. */
export async function runCommand(specWords: string[], rawOptions: unknown, terminal: Output, handed?: GivenText): Promise<number> {
  const options = parseOptions(RunOptions, rawOptions);
  const session = openRunSession('run', options, terminal);
  const io = session.output.human;
  const settings = readSettings();
  const choice = withChaos(parseLlmFlag(options.llm, settings), chaosOf(options));
  const given = await readSpecInput({ words: specWords, file: options.specFile });
  const instructions = options.instructions === undefined ? (handed?.instructions ?? null) : await readInstructionsFile(options.instructions);
  const scenario = choice.kind === 'scripted' ? await loadScenario(choice.file) : null;

  // A spec given (on the command line, in a file, on standard input), even an empty one, is the spec: a
  // blank one is refused, not silently replaced by the scenario's.
  const spec = (given ?? scenario?.spec ?? '').trim();
  if (spec === '') {
    throw new SopworksError('SPEC_INVALID', 'The spec is empty.', {
      hint: 'Say what to build in one line: sopworks run "a CLI that counts word frequencies in text files"',
    });
  }
  if (spec.length > MAX_SPEC) {
    throw new SopworksError('SPEC_INVALID', `The spec is ${spec.length} characters long; the limit is ${MAX_SPEC}.`, {
      hint: 'A one-line spec is enough: the Product Manager writes the details into the PRD.',
    });
  }
  const name = checkProjectName(options.name ?? scenario?.name ?? projectNameFromSpec(spec));
  // Whether any generated code could run here: probed while the company loads, refused before anything is written.
  const sandboxCheck = refuseUnsandboxableAtStart(sandboxSettings(settings.sandbox, options.allowUnsandboxed));
  const company = await loadCompany(options.sops, options.roles);
  for (const warning of company.warnings) io.err(formatDiagnostic(warning));
  checkUntil(company, options.until);
  const policy = await loadPolicy(options.sops);
  // A registry set to something that is not a URL is refused now, before anything is written.
  dependencyRegistries(policy);
  const modelFor = parseModelFor(
    options.modelFor,
    company.roles.map((r) => r.id),
  );
  const { provider, roleModels } = await createProviderForRoles(
    choice,
    scenario,
    settings,
    options.model,
    providerHooks(io),
    company.roles,
    modelFor,
    sopPrompts(company, spec),
  );
  const unsandboxable = await sandboxCheck;
  if (unsandboxable) throw unsandboxable;
  const projectDir = await prepareProjectDir(options.out, name, options.force, (line) => io.err(line));

  const llm: LlmRecord = llmRecordOf(choice, provider, options.model, settings, roleModels);
  checkBudgetPrices({ usd: options.budget, tokens: options.maxTokens }, provider, priceOf(llm, settings));
  return runInSession(session, provider, (onEvent, stop) =>
    startRun({
      ...requestOfSettings(session, settings, llm, provider),
      spec,
      project: name,
      instructions,
      projectDir,
      company,
      provider,
      llm,
      budget: { usd: options.budget, tokens: options.maxTokens },
      concurrency: options.concurrency ?? undefined,
      engineers: options.engineers ?? undefined,
      approvals: { gates: options.approve, yes: options.yes },
      until: options.until ?? null,
      policy,
      onEvent,
      stop,
    }),
  );
}
