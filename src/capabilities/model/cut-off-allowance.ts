/**
 * The tokens one step may spend on replies cut off at the output limit. A model that always stops at
 * its limit would otherwise have each reply continued (SOPWORKS_MAX_CONTINUATIONS) and each attempt
 * re-asked (SOPWORKS_MAX_REPAIRS) — 12 requests and some 37,000 completion tokens for one step at the
 * defaults. Here continuations and re-asks draw on one allowance, SOPWORKS_MAX_CUT_OFF_TOKENS (default:
 * three whole replies, 3 × SOPWORKS_MAX_OUTPUT_TOKENS): no request is sent that could take the step's
 * cut-off replies past it, so the bound holds whatever the model does.
 */
import { SopworksError } from '../../ground/errors.ts';
import { type CallMeta, type Completion, describeCall } from './provider.ts';

export interface CutOffLimits {
  /** Completion tokens one step may spend on cut-off replies (SOPWORKS_MAX_CUT_OFF_TOKENS). */
  perStep: number;
  /** The most one request can produce (SOPWORKS_MAX_OUTPUT_TOKENS). */
  perRequest: number;
}

export class CutOffAllowance {
  private spent = 0;

  constructor(private readonly limits: CutOffLimits) {}

  /** Tokens left for the continuations of the next request, or of the next re-ask. */
  get remaining(): number {
    return Math.max(0, this.limits.perStep - this.spent);
  }

  /** Counts a reply that was cut off (or continued) against the allowance. */
  record(completion: Pick<Completion, 'finishReason' | 'continuations'>, completionTokens: number): void {
    if (completion.finishReason === 'length' || (completion.continuations ?? 0) > 0) this.spent += completionTokens;
  }

  /** Whether one more whole request fits. */
  get roomForAnother(): boolean {
    return this.spent + this.limits.perRequest <= this.limits.perStep;
  }

  exhausted(call: CallMeta): SopworksError {
    return new SopworksError(
      'REPLY_INVALID',
      `The model's replies for ${describeCall(call)} kept stopping at the output limit: ${this.spent} completion tokens went to cut-off replies, ` +
        `and another request could pass SOPWORKS_MAX_CUT_OFF_TOKENS (${this.limits.perStep}).`,
      {
        hint:
          'Raise SOPWORKS_MAX_OUTPUT_TOKENS if the model allows longer replies (or SOPWORKS_MAX_CUT_OFF_TOKENS), or split the work into smaller files; ' +
          'then `sopworks resume <project folder>` asks the step again.',
      },
    );
  }
}
