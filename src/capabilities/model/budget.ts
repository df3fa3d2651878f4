/**
 * The run's budget: dollars (`--budget`) and/or tokens (`--max-tokens`). Checked before every model
 * call from the prompt's size plus the largest reply allowed, so a run stops before a call that could
 * cross the line — never more than one call over.
 */
import { SopworksError } from '../../ground/errors.ts';
import { costOf, formatUsd, type Price } from './prices.ts';
import { type CallMeta, describeCall } from './provider.ts';

export interface BudgetLimits {
  usd: number | null;
  tokens: number | null;
}

export class Budget {
  private spentUsd: number;
  private spentTokens: number;

  constructor(
    readonly limits: BudgetLimits,
    private readonly price: Price | null,
    spent: { usd: number; tokens: number } = { usd: 0, tokens: 0 },
  ) {
    if (limits.usd !== null && price === null) {
      throw new SopworksError('USAGE', '--budget needs the price of the model, and it is not known.', {
        hint: 'Set SOPWORKS_PRICE_INPUT and SOPWORKS_PRICE_OUTPUT (US dollars per million tokens), or bound the run with --max-tokens.',
      });
    }
    this.spentUsd = spent.usd;
    this.spentTokens = spent.tokens;
  }

  /** Throws BUDGET_EXHAUSTED when the call could take the run past a limit. */
  /** `price`: the price of the model about to be asked, when it is not the run's (a model per role). */
  check(call: CallMeta, promptTokens: number, maxOutputTokens: number, price: Price | null = this.price): void {
    const worst = { promptTokens, completionTokens: maxOutputTokens };
    const { usd, tokens } = this.limits;
    if (tokens !== null && this.spentTokens + promptTokens + maxOutputTokens > tokens) {
      throw new SopworksError(
        'BUDGET_EXHAUSTED',
        `The token budget is spent: ${this.spentTokens} of ${tokens} tokens used, and ${describeCall(call)} could take up to ${promptTokens + maxOutputTokens} more.`,
        { hint: 'Everything so far is committed. Continue with: sopworks resume <project> --max-tokens <more>' },
      );
    }
    const cost = costOf(worst, price);
    if (usd !== null && cost !== null && this.spentUsd + cost > usd) {
      throw new SopworksError(
        'BUDGET_EXHAUSTED',
        `The budget is spent: ${formatUsd(this.spentUsd)} of ${formatUsd(usd)} used, and ${describeCall(call)} could cost up to ${formatUsd(cost)} more.`,
        { hint: 'Everything so far is committed. Continue with: sopworks resume <project> --budget <more dollars>' },
      );
    }
  }

  charge(usage: { promptTokens: number; completionTokens: number }, price: Price | null = this.price): void {
    this.spentTokens += usage.promptTokens + usage.completionTokens;
    this.spentUsd += costOf(usage, price) ?? 0;
  }
}
