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
import { commandOutput } from './command-output.ts';
import { readSpecInput } from './spec-input.ts';
import { readInstructionsFile } from '../../company/project-instructions.ts';
import { reportRun } from './report-run.ts';
import { withTracing } from './with-tracing.ts';
import { installStopSignals } from './stop-signals.ts';
import { GATES, type Gate } from '../../capabilities/approvals/approval-desk.ts';
import { terminalPerson } from './approval-prompt.ts';
import { providerHooks } from './provider-hooks.ts';
import { parseOptions, positiveInteger, positiveNumber, wholeNumberIn, duration } from './parse-options.ts';
import { checkBudgetPrices, priceOf, worstReplyTokens } from './price-of.ts';
import type { LlmRecord } from '../../company/run-record.ts';
import { loadPolicy } from '../../capabilities/policy/load-policy.ts';
import { refuseUnsandboxableAtStart } from '../../host/sandbox/early-refusal.ts';
import { dependencyRegistries } from '../../capabilities/project/dependency-registries.ts';
import { sandboxSettings } from '../../host/sandbox/sandbox-settings.ts';
import { llmRecordOf } from './llm-record.ts';
import { checkClarify, checkUntil } from '../../engine/run/until-check.ts';
import { ChaosOptions, chaosOf, withChaos } from './chaos-option.ts';
import { sopPrompts } from '../../company/sop-prompts.ts';
import { deadlineOf } from './deadline.ts';
import { LiveStatus } from './live-status.ts';

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
  /** Let the roles ask the person questions first (a SOP's clarify step). */
  clarify: z.boolean().default(false),
  ...ChaosOptions,
});
export type RunOptions = z.infer<typeof RunOptions>;

const MAX_SPEC = 4000;

export async function runCommand(specWords: string[], rawOptions: unknown, terminal: Output): Promise<number> {
  const options = parseOptions(RunOptions, rawOptions);
  // On a terminal (and without --json), a status line shows each model call's progress below the progress lines.
  const live = options.json ? null : LiveStatus.forTerminal();
  const output = commandOutput(live ? live.wrap(terminal) : terminal, options.json, 'run', live);
  const io = output.human;
  const settings = readSettings();
  const choice = withChaos(parseLlmFlag(options.llm, settings), chaosOf(options));
  const given = await readSpecInput({ words: specWords, file: options.specFile });
  const instructions = options.instructions === undefined ? null : await readInstructionsFile(options.instructions);
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
  checkClarify(company, options.clarify);
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
  const { signals, dispose } = installStopSignals();
  try {
    const result = await withTracing('run', io, output.progress, (onEvent) =>
      startRun({
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
        price: priceOf(llm, settings),
        maxOutputTokens: worstReplyTokens(llm, settings, provider),
        recordTo: options.record ?? null,
        approvals: { gates: options.approve, yes: options.yes, clarify: options.clarify },
        until: options.until ?? null,
        ...terminalPerson(options.yes),
        maxRepairs: settings.maxRepairs,
        policy,
        sandbox: sandboxSettings(settings.sandbox, options.allowUnsandboxed),
        onEvent,
        stop: { ...signals, deadline: deadlineOf(options.maxTime) },
      }),
    );
    live?.close();
    return await reportRun(result, provider.label, output, 'run');
  } finally {
    live?.close();
    dispose();
  }
}
