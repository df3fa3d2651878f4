/** The price that applies to a run's model: the configured one, else the known list (openai only). */
import type { Settings } from '../../capabilities/model/index.ts';
import type { LlmRecord } from '../../company/index.ts';
import { Budget, type BudgetLimits } from '../../capabilities/model/index.ts';
import { priceFor, type Price } from '../../capabilities/model/index.ts';
import type { Provider } from '../../capabilities/model/index.ts';
import { RoutedProvider } from '../../capabilities/model/index.ts';
import { SopworksError } from '../../ground/errors.ts';

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
export function worstReplyTokens(llm: LlmRecord, settings: Settings, provider?: Provider): number {
  // A local model's limits are planned for its context (context-plan.ts): what it says it allows.
  if (provider?.replyAllowance !== undefined) return provider.replyAllowance;
  return llm.kind !== 'scripted' ? settings.maxOutputTokens * (1 + settings.model.maxContinuations) : settings.maxOutputTokens;
}

/**
 * The same for every model a run may ask: with a model per role or fallbacks, a dollar budget needs the
 * price of each; the one that is missing is named.
 */
export function checkBudgetPrices(limits: BudgetLimits, provider: Provider, runPrice: Price | null): void {
  if (!(provider instanceof RoutedProvider) || limits.usd === null) {
    checkBudgetPrice(limits, runPrice);
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
