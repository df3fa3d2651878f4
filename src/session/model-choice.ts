/**
 * The model a run asks — one choice for a start, a change and a resume: `--llm` (or what the run started
 * with), chaos on a scenario, each role's model (`--model-for` over the company's or the run's own), what
 * run.json keeps of it, and its price checked against the limits before anything is written.
 */
import path from 'node:path';
import {
  Budget,
  type BudgetLimits,
  type ChaosSettings,
  createProviderForRoles,
  DEFAULT_CHAOS_SEED,
  type LlmChoice,
  type Price,
  type Provider,
  type ProviderHooks,
  parseModelFor,
  priceFor,
  type RoleModel,
  type RoleModelRecord,
  RoutedProvider,
  type Scenario,
  type Settings,
} from '../capabilities/model/index.ts';
import { type Company, type LlmRecord, sopPrompts } from '../company/index.ts';
import { SopworksError } from '../ground/errors.ts';

export interface ModelAsked {
  choice: LlmChoice;
  scenario: Scenario | null;
  settings: Settings;
  /** `--model`, or the run's own on a resume. */
  model: string | undefined;
  company: Company;
  /** Each role with the model it asks before `--model-for` (the company's, or what the run kept). */
  roles: readonly { id: string; model?: RoleModel | undefined }[];
  modelFor: readonly string[];
  /** The spec or the change request, for a local model's limits over the SOP's prompts. */
  text: string;
  budget: BudgetLimits;
}

export interface ModelChosen {
  provider: Provider;
  /** What run.json keeps of the model, so that `resume` reopens the same one. */
  llm: LlmRecord;
}

export async function chooseModel(asked: ModelAsked, hooks: ProviderHooks): Promise<ModelChosen> {
  const modelFor = parseModelFor(
    asked.modelFor,
    asked.company.roles.map((r) => r.id),
  );
  const { provider, roleModels } = await createProviderForRoles(
    asked.choice,
    asked.scenario,
    asked.settings,
    asked.model,
    hooks,
    asked.roles,
    modelFor,
    sopPrompts(asked.company, asked.text),
  );
  const llm = llmRecordOf(asked.choice, provider, asked.model, asked.settings, roleModels);
  checkBudgetPrices(asked.budget, provider, priceOf(llm, asked.settings));
  return { provider, llm };
}

/** `roleModels`: each role's models, when roles have their own (src/capabilities/model/role-model.ts); kept for resume. */
function llmRecordOf(
  choice: LlmChoice,
  provider: Provider,
  model: string | undefined,
  settings: Settings,
  roleModels: Record<string, RoleModelRecord> | null,
): LlmRecord {
  if (choice.kind === 'scripted') return { kind: 'scripted', file: path.resolve(choice.file), ...(choice.chaos ? { chaos: choice.chaos } : {}) };
  // The file that was loaded (a name from the cache is kept as its path: the cache may change).
  if (choice.kind === 'local') return { kind: 'local', model: (provider as { modelFile?: string }).modelFile ?? provider.label.replace(/^local:/, '') };
  return { kind: 'openai', model: model ?? settings.model.model, ...(roleModels ? { roles: roleModels } : {}) };
}

/** The provider a resumed run reopens when no --llm is given. */
export function choiceOfRecord(llm: LlmRecord): LlmChoice {
  if (llm.kind === 'scripted') return { kind: 'scripted', file: llm.file, chaos: llm.chaos ?? null };
  if (llm.kind === 'local') return { kind: 'local', model: llm.model };
  return { kind: 'openai' };
}

/** The price that applies to a run's model: the configured one, else the known list (openai only). */
export function priceOf(llm: LlmRecord, settings: Settings): Price | null {
  if (llm.kind === 'local') return settings.price ?? { inputPerMTok: 0, outputPerMTok: 0 };
  return llm.kind === 'openai' ? priceFor(llm.model, settings.price) : settings.price;
}

/**
 * The most tokens one call's reply can take, for the budget check: with the openai and local providers a reply cut
 * off at max_tokens is continued up to SOPWORKS_MAX_CONTINUATIONS times, each up to max_tokens.
 */
export function worstReplyTokens(llm: LlmRecord, settings: Settings, provider?: Provider): number {
  // A local model's limits are planned for its context (context-plan.ts): what it says it allows.
  if (provider?.replyAllowance !== undefined) return provider.replyAllowance;
  return llm.kind !== 'scripted' ? settings.maxOutputTokens * (1 + settings.model.maxContinuations) : settings.maxOutputTokens;
}

/**
 * Refuses, before anything is written, a dollar budget for a model whose price is unknown — with a model
 * per role or fallbacks, the price of each; the one that is missing is named.
 */
function checkBudgetPrices(limits: BudgetLimits, provider: Provider, runPrice: Price | null): void {
  if (!(provider instanceof RoutedProvider) || limits.usd === null) {
    new Budget(limits, runPrice);
    return;
  }
  for (const { label, price } of provider.routes()) {
    if (price === null) {
      throw new SopworksError('USAGE', `--budget needs the price of every model the run may ask, and the price of ${label} is not known.`, {
        hint: 'Give it a price in sops/company.yaml (price: {input: …, output: …}, US dollars per million tokens), set SOPWORKS_PRICE_INPUT and SOPWORKS_PRICE_OUTPUT, or bound the run with --max-tokens.',
      });
    }
  }
}

/** The chaos asked for, or null; `--seed` alone is refused, as it would change nothing. */
export function chaosOf(asked: { chaos: number | null; seed: number | null }): ChaosSettings | null {
  if (asked.chaos === null) {
    if (asked.seed !== null) {
      throw new SopworksError('USAGE', '--seed chooses which replies --chaos spoils; without --chaos it changes nothing.', {
        hint: 'Add --chaos <rate>, e.g. --chaos 0.3 --seed 7.',
      });
    }
    return null;
  }
  return { rate: asked.chaos, seed: asked.seed ?? DEFAULT_CHAOS_SEED };
}

/** The model choice with the chaos asked for; refused for anything but a scripted scenario. */
export function withChaos(choice: LlmChoice, chaos: ChaosSettings | null): LlmChoice {
  if (chaos === null) return choice;
  if (choice.kind !== 'scripted') {
    throw new SopworksError('USAGE', `--chaos spoils a scripted scenario's replies; --llm ${choice.kind} is a real model.`, {
      hint: 'Use --llm scripted:<scenario file> (e.g. examples/wordfreq.yaml), or drop --chaos.',
    });
  }
  return { ...choice, chaos };
}
