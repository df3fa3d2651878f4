/**
 * `sopworks resume <project>`: continue a run whose outcome is not `done` — after a crash, kill -9,
 * Ctrl-C or a failed step — with the SOPs, model settings and scenario it started with. `--llm` and
 * `--model` may change the model; `--hint` hands a person's guidance to the step that failed, which is
 * asked again. A run its SOP concluded failed is refused, saying why (run-continuation.ts).
 */
import { choiceOfRecord } from './llm-record.ts';
import { ChaosOptions, chaosOf, withChaos } from './chaos-option.ts';
import path from 'node:path';
import { z } from 'zod';
import { readSettings } from '../../capabilities/model/index.ts';
import { loadCompany } from '../../company/index.ts';
import { resumableRecord, resumeRun } from '../../company/index.ts';
import { parseLlmFlag } from '../../capabilities/model/index.ts';
import { roleModelsFromRecord } from '../../capabilities/model/index.ts';
import { checkContinuable, checkHintApplies } from '../../engine/run/index.ts';
import { loadPolicy } from '../../capabilities/policy/index.ts';
import { dependencyRegistries } from '../../capabilities/project/index.ts';
import type { Output } from './output.ts';
import { sandboxSettings } from '../../host/sandbox/index.ts';
import { refuseTampered } from './refuse-tampered.ts';
import { refuseUnsandboxableAtStart } from '../../host/sandbox/index.ts';
import { parseOptions, positiveInteger, positiveNumber, duration } from './parse-options.ts';
import { checkUntil } from '../../engine/run/index.ts';
import { openRunSession, requestOfSettings, runInSession } from './run-session.ts';
import { roleModels } from './role-models.ts';

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
  const options = parseOptions(ResumeOptions, rawOptions, 'resume');
  const session = openRunSession('resume', options, terminal);
  const io = session.output.human;
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
  // New limits replace the old ones; without them, the run keeps the limits it started with.
  const budget = {
    usd: options.budget ?? record.budget.usd,
    tokens: options.maxTokens ?? record.budget.tokens,
  };
  const { provider, llm } = await roleModels(
    { choice, scenario: null, settings, model, company, roles, modelFor: options.modelFor, spec: record.spec, budget },
    io,
  );
  io.out(`Resuming ${projectDir} (last outcome: ${record.outcome ?? 'none — the run was cut off'})`);
  return runInSession(session, provider, (onEvent, stop) =>
    resumeRun({
      ...requestOfSettings(session, settings, llm, provider),
      projectDir,
      record: { ...record, llm, budget, approvals: { ...record.approvals, yes: record.approvals.yes || options.yes }, until: options.until ?? null },
      company,
      provider,
      guidance: options.hint ?? null,
      onEvent,
      stop,
    }),
  );
}
