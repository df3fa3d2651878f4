/**
 * `sopworks resume <project>`: continue a run whose outcome is not `done` — after a crash, kill -9,
 * Ctrl-C or a failed step — with the SOPs, model settings and scenario it started with. `--llm` and
 * `--model` may change the model.
 */
import path from 'node:path';
import { z } from 'zod';
import { readSettings } from '../config/settings.ts';
import { loadCompany } from '../company/load-company.ts';
import { loadPolicy } from '../policy/load-policy.ts';
import { dependencyRegistries } from '../sandbox/dependency-registries.ts';
import { resumableRecord, resumeRun } from '../company/Company.ts';
import { parseLlmFlag, createProvider } from '../llm/select-provider.ts';
import type { LlmRecord } from '../company/run-record.ts';
import type { Output } from './output.ts';
import { progressPrinter } from './progress.ts';
import { reportRun } from './report-run.ts';
import { installStopSignals } from './stop-signals.ts';
import { terminalApprover } from './approval-prompt.ts';
import { providerHooks } from './provider-hooks.ts';
import { sandboxSettings } from '../sandbox/sandbox-settings.ts';
import { parseOptions, positiveInteger, positiveNumber } from './parse-options.ts';
import { checkBudgetPrice, priceOf, worstReplyTokens } from './price-of.ts';

export const ResumeOptions = z.object({
  llm: z.string().optional(),
  model: z.string().min(1).optional(),
  budget: positiveNumber('US dollars'),
  maxTokens: positiveInteger('tokens'),
  record: z.string().min(1).optional(),
  allowUnsandboxed: z.boolean().default(false),
  yes: z.boolean().default(false),
});

export async function resumeCommand(project: string, rawOptions: unknown, io: Output): Promise<number> {
  const options = parseOptions(ResumeOptions, rawOptions);
  const projectDir = path.resolve(project);
  const record = await resumableRecord(projectDir);
  const settings = readSettings();
  const choice = options.llm ? parseLlmFlag(options.llm, settings) : record.llm.kind === 'scripted' ? { kind: 'scripted' as const, file: record.llm.file } : { kind: 'openai' as const };
  const model = options.model ?? (record.llm.kind === 'openai' && choice.kind === 'openai' ? record.llm.model : undefined);
  const company = await loadCompany(record.sops, record.roles);
  // A registry set to something that is not a URL is refused now, before the run goes on.
  dependencyRegistries(await loadPolicy(record.sops));
  const provider = await createProvider(choice, null, settings, model, providerHooks(io));
  const llm: LlmRecord = choice.kind === 'scripted' ? { kind: 'scripted', file: path.resolve(choice.file) } : { kind: 'openai', model: model ?? settings.model.model };
  // New limits replace the old ones; without them, the run keeps the limits it started with.
  const budget = {
    usd: options.budget ?? record.budget.usd,
    tokens: options.maxTokens ?? record.budget.tokens,
  };
  checkBudgetPrice(budget, priceOf(llm, settings));
  io.out(`Resuming ${projectDir} (last outcome: ${record.outcome ?? 'none — the run was cut off'})`);
  const { signals, dispose } = installStopSignals();
  try {
    const result = await resumeRun({
      projectDir,
      record: { ...record, llm, budget, approvals: { ...record.approvals, yes: record.approvals.yes || options.yes } },
      askPerson: terminalApprover(),
      company,
      provider,
      price: priceOf(llm, settings),
      maxOutputTokens: worstReplyTokens(llm, settings),
      recordTo: options.record ?? null,
      sandbox: sandboxSettings(settings.sandbox, options.allowUnsandboxed),
      maxRepairs: settings.maxRepairs,
      onEvent: progressPrinter((line) => io.out(line)),
      stop: signals,
    });
    return await reportRun(result, provider.label, io);
  } finally {
    dispose();
  }
}
