/** The price that applies to a run's model: the configured one, else the known list (openai only). */
import type { Settings } from '../config/settings.ts';
import type { LlmRecord } from '../company/run-record.ts';
import { Budget, type BudgetLimits } from '../llm/budget.ts';
import { priceFor, type Price } from '../llm/prices.ts';

export function priceOf(llm: LlmRecord, settings: Settings): Price | null {
  if (llm.kind === 'local') return settings.price ?? { inputPerMTok: 0, outputPerMTok: 0 };
  return llm.kind === 'openai' ? priceFor(llm.model, settings.price) : settings.price;
}

/** Refuses, before anything is written, a dollar budget for a model whose price is unknown. */
export function checkBudgetPrice(limits: BudgetLimits, price: Price | null): void {
  new Budget(limits, price);
}

/**
 * The most tokens one call's reply can take, for the budget check: with the openai and local providers a reply cut
 * off at max_tokens is continued up to SOPWORKS_MAX_CONTINUATIONS times, each up to max_tokens.
 */
export function worstReplyTokens(llm: LlmRecord, settings: Settings): number {
  return llm.kind !== 'scripted' ? settings.maxOutputTokens * (1 + settings.model.maxContinuations) : settings.maxOutputTokens;
}
