/**
 * A run to continue, prepared: a run whose outcome is not `done` — after a crash, kill -9, Ctrl-C or a
 * failed step — with the SOPs, model settings and scenario it started with. `llm` and `model` may change
 * the model; `hint` hands a person's guidance to the step that failed, which is asked again. A run its
 * SOP concluded failed is refused, saying why (src/engine/run/run-continuation.ts); so is a project
 * whose record or repository is a link.
 */
import path from 'node:path';
import { changeEndLines } from '../capabilities/change/index.ts';
import { parseLlmFlag, roleModelsFromRecord } from '../capabilities/model/index.ts';
import { loadPolicy } from '../capabilities/policy/index.ts';
import { dependencyRegistries } from '../capabilities/project/index.ts';
import { loadCompany, resumableRecord, resumeRun } from '../company/index.ts';
import { checkContinuable, checkHintApplies, checkUntil } from '../engine/run/index.ts';
import { SopworksError } from '../ground/errors.ts';
import { describeFindings, inspectProject } from '../host/git/index.ts';
import { refuseUnsandboxableAtStart, sandboxSettings } from '../host/sandbox/index.ts';
import { continuationAdvice } from './continuation-advice.ts';
import { type PreparedRun, settingsOf } from './execute.ts';
import type { Lines, SessionHooks } from './hooks.ts';
import { chaosOf, choiceOfRecord, chooseModel, withChaos } from './model-choice.ts';
import { parseRequest } from './parse-request.ts';
import { providerHooksOf } from './provider-lines.ts';
import { ResumeAsk } from './resume-ask.ts';

export async function prepareResume(asked: ResumeAsk, hooks: SessionHooks): Promise<PreparedRun> {
  const ask = parseRequest(ResumeAsk, asked, 'resume');
  const projectDir = path.resolve(ask.project);
  await refuseTampered(projectDir, hooks.lines);
  const record = await resumableRecord(projectDir);
  await checkContinuable(projectDir, record, continuationAdvice);
  if (ask.hint) checkHintApplies(record);
  const settings = settingsOf(hooks);
  const unsandboxable = await refuseUnsandboxableAtStart(sandboxSettings(settings.sandbox, ask.allowUnsandboxed));
  if (unsandboxable) throw unsandboxable;
  // A scripted run keeps the chaos it started with, unless --chaos asks for another.
  const choice = withChaos(ask.llm ? parseLlmFlag(ask.llm, settings) : choiceOfRecord(record.llm), chaosOf(ask));
  const model = ask.model ?? (record.llm.kind === 'openai' && choice.kind === 'openai' ? record.llm.model : undefined);
  const company = await loadCompany(record.sops, record.roles);
  checkUntil(company, ask.until);
  // A registry set to something that is not a URL is refused now, before the run goes on.
  dependencyRegistries(await loadPolicy(record.sops));
  // The models each role asked keep answering it, unless --model-for names another.
  const kept = record.llm.kind === 'openai' && record.llm.roles && choice.kind === 'openai' ? roleModelsFromRecord(record.llm.roles) : null;
  const roles = company.roles.map((r) => ({ id: r.id, model: kept?.find((k) => k.id === r.id)?.model ?? r.model }));
  // New limits replace the old ones; without them, the run keeps the limits it started with.
  const budget = { usd: ask.budget ?? record.budget.usd, tokens: ask.maxTokens ?? record.budget.tokens };
  const { provider, llm } = await chooseModel(
    { choice, scenario: null, settings, model, company, roles, modelFor: ask.modelFor, text: record.spec, budget },
    providerHooksOf(hooks),
  );
  // --until holds until the run has stopped there: a run stopped before it (questions waiting, Ctrl-C, a
  // failure) keeps it; one paused at it goes on to the end, or to the later point asked now.
  const until = ask.until ?? (pausedAtUntil(record) ? null : (record.until ?? null));
  return {
    command: 'resume',
    projectDir,
    provider,
    llm,
    settings,
    flags: ask,
    next: [],
    // A change's end says how to review, merge and remove it, or not to merge it (empty for other runs).
    after: (run) => changeEndLines(run),
    start: async (basics, { lines }) => {
      lines.out(`Resuming ${projectDir} (last outcome: ${record.outcome ?? 'none — the run was cut off'})`);
      return resumeRun({
        ...basics,
        projectDir,
        record: { ...record, llm, budget, approvals: { ...record.approvals, yes: record.approvals.yes || ask.yes }, until },
        company,
        provider,
        guidance: ask.hint ?? null,
      });
    },
  };
}

/** A run paused where --until asked (a pause at the endpoint's limit has a time to resume at instead). */
const pausedAtUntil = (record: { outcome?: string | null; resumeAt?: string | null }): boolean => record.outcome === 'paused' && !record.resumeAt;

/** Before a resume writes anything: a link where the record or repository should be is refused; the rest is warned about. */
async function refuseTampered(projectDir: string, lines: Lines): Promise<void> {
  const findings = await inspectProject(projectDir);
  if (findings.refusals.length > 0) {
    throw new SopworksError('NOT_RESUMABLE', `Refused to resume ${projectDir}: ${findings.refusals.join('; ')}.`, {
      hint: 'sopworks would write through that link. Put the real folder back (or start a new run); nothing was written.',
    });
  }
  for (const line of describeFindings(projectDir, { refusals: [], warnings: findings.warnings })) lines.err(`warning: ${line}`);
}
