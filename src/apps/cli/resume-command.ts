/**
 * `sopworks resume <project>`: continue a run whose outcome is not `done` — after a crash, kill -9,
 * Ctrl-C or a failed step — with the SOPs, model settings and scenario it started with. `--llm` and
 * `--model` may change the model; `--hint` hands a person's guidance to the step that failed, which is
 * asked again. A run its SOP concluded failed is refused, saying why (run-continuation.ts).
 */
import { choiceOfRecord, llmRecordOf } from './llm-record.ts';
import { ChaosOptions, chaosOf, withChaos } from './chaos-option.ts';
import path from 'node:path';
import { z } from 'zod';
import { readSettings } from '../../capabilities/model/settings.ts';
import { loadCompany } from '../../company/load-company.ts';
import { resumableRecord, resumeRun } from '../../company/start-run.ts';
import { parseLlmFlag, createProviderForRoles } from '../../capabilities/model/select-provider.ts';
import { parseModelFor, roleModelsFromRecord } from '../../capabilities/model/role-model.ts';
import { checkContinuable, checkHintApplies } from '../../engine/run/run-continuation.ts';
import { loadPolicy } from '../../capabilities/policy/load-policy.ts';
import { dependencyRegistries } from '../../capabilities/project/dependency-registries.ts';
import type { LlmRecord } from '../../company/run-record.ts';
import type { Output } from './output.ts';
import { commandOutput } from './command-output.ts';
import { reportRun } from './report-run.ts';
import { withTracing } from './with-tracing.ts';
import { installStopSignals } from './stop-signals.ts';
import { terminalPerson } from './approval-prompt.ts';
import { providerHooks } from './provider-hooks.ts';
import { sandboxSettings } from '../../host/sandbox/sandbox-settings.ts';
import { refuseTampered } from './refuse-tampered.ts';
import { refuseUnsandboxableAtStart } from '../../host/sandbox/early-refusal.ts';
import { parseOptions, positiveInteger, positiveNumber, duration } from './parse-options.ts';
import { checkUntil } from '../../engine/run/until-check.ts';
import { checkBudgetPrices, priceOf, worstReplyTokens } from './price-of.ts';
import { sopPrompts } from '../../company/sop-prompts.ts';
import { deadlineOf } from './deadline.ts';
import { LiveStatus } from './live-status.ts';

export const ResumeOptions = z.object({
  llm: z.string().optional(),
  model: z.string().min(1).optional(),
  modelFor: z.array(z.string()).default([]),
  budget: positiveNumber('US dollars'),
  maxTokens: positiveInteger('tokens'),
  maxTime: duration(),
  record: z.string().min(1).optional(),
  allowUnsandboxed: z.boolean().default(false),
  yes: z.boolean().default(false),
  /** Guidance for the step that failed, shown in its prompt when it is asked again. */
  hint: z.string().trim().min(1, 'give the guidance as text, e.g. --hint "write the whole file, no placeholders"').optional(),
  json: z.boolean().default(false),
  /** Stop again, at a later point; without it, a run that stopped at one (`--until`) goes on to the end. */
  until: z.string().trim().min(1).optional(),
  ...ChaosOptions,
});

export async function resumeCommand(project: string, rawOptions: unknown, terminal: Output): Promise<number> {
  const options = parseOptions(ResumeOptions, rawOptions);
  // On a terminal (and without --json), a status line shows each model call's progress below the progress lines.
  const live = options.json ? null : LiveStatus.forTerminal();
  const output = commandOutput(live ? live.wrap(terminal) : terminal, options.json, 'resume', live);
  const io = output.human;
  const projectDir = path.resolve(project);
  await refuseTampered(projectDir, io);
  const record = await resumableRecord(projectDir);
  await checkContinuable(projectDir, record);
  if (options.hint) checkHintApplies(record);
  const settings = readSettings();
  const unsandboxable = await refuseUnsandboxableAtStart(sandboxSettings(settings.sandbox, options.allowUnsandboxed));
  if (unsandboxable) throw unsandboxable;
  // A scripted run keeps the chaos it started with, unless --chaos asks for another.
  const chaos = chaosOf(options);
  const choice = withChaos(options.llm ? parseLlmFlag(options.llm, settings) : choiceOfRecord(record.llm), chaos);
  const model = options.model ?? (record.llm.kind === 'openai' && choice.kind === 'openai' ? record.llm.model : undefined);
  const company = await loadCompany(record.sops, record.roles);
  checkUntil(company, options.until);
  // A registry set to something that is not a URL is refused now, before the run goes on.
  dependencyRegistries(await loadPolicy(record.sops));
  // The models each role asked keep answering it, unless --model-for names another.
  const kept = record.llm.kind === 'openai' && record.llm.roles && choice.kind === 'openai' ? roleModelsFromRecord(record.llm.roles) : null;
  const roles = company.roles.map((r) => ({ id: r.id, model: kept?.find((k) => k.id === r.id)?.model ?? r.model }));
  const modelFor = parseModelFor(
    options.modelFor,
    company.roles.map((r) => r.id),
  );
  const { provider, roleModels } = await createProviderForRoles(
    choice,
    null,
    settings,
    model,
    providerHooks(io),
    roles,
    modelFor,
    sopPrompts(company, record.spec),
  );
  const llm: LlmRecord = llmRecordOf(choice, provider, model, settings, roleModels);
  // New limits replace the old ones; without them, the run keeps the limits it started with.
  const budget = {
    usd: options.budget ?? record.budget.usd,
    tokens: options.maxTokens ?? record.budget.tokens,
  };
  checkBudgetPrices(budget, provider, priceOf(llm, settings));
  io.out(`Resuming ${projectDir} (last outcome: ${record.outcome ?? 'none — the run was cut off'})`);
  const { signals, dispose } = installStopSignals();
  try {
    const result = await withTracing('resume', io, output.progress, (onEvent) =>
      resumeRun({
        projectDir,
        record: { ...record, llm, budget, approvals: { ...record.approvals, yes: record.approvals.yes || options.yes }, until: options.until ?? null },
        ...terminalPerson(options.yes),
        company,
        provider,
        price: priceOf(llm, settings),
        maxOutputTokens: worstReplyTokens(llm, settings, provider),
        recordTo: options.record ?? null,
        sandbox: sandboxSettings(settings.sandbox, options.allowUnsandboxed),
        maxRepairs: settings.maxRepairs,
        guidance: options.hint ?? null,
        onEvent,
        stop: { ...signals, deadline: deadlineOf(options.maxTime) },
      }),
    );
    live?.close();
    return await reportRun(result, provider.label, output, 'resume');
  } finally {
    live?.close();
    dispose();
  }
}
