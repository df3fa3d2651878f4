/**
 * The limits a server's model works within once they are planned for its known context window
 * (context-plan.ts): the caps its schemas carry, and how far a cut-off reply is continued — a reply of
 * files (QA's tests) further than the one request any other reply gets. Unplanned, the settings decide.
 */
import type { ContextPlan } from '../context-plan.ts';
import type { ReplyShape } from '../provider.ts';
import type { SchemaCaps } from '../schema-caps.ts';

export class PlannedLimits {
  /** Caps on strings and arrays whose schema sets none (null: none). */
  caps: SchemaCaps | null = null;
  /** The context window planned for, when known. */
  contextWindow: number | undefined = undefined;
  private filesContinuations: number | null = null;

  fit(plan: ContextPlan): void {
    this.contextWindow = plan.contextTokens;
    this.caps = { maxStringChars: plan.maxStringChars, maxItems: plan.maxItems };
    this.filesContinuations = plan.filesContinuations;
  }

  /** How many times a cut-off reply of this kind is continued: a plan continues only replies of files; else `set` (the setting). */
  continuations(output: ReplyShape | undefined, set: number): number {
    if (this.filesContinuations === null) return set;
    return output?.kind === 'files' ? this.filesContinuations : set;
  }

  /** The tokens a request of this shape keeps for its reply: the output limit and its continuations. */
  allowance(output: ReplyShape | undefined, settings: { maxOutputTokens: number; maxContinuations: number }): number {
    return settings.maxOutputTokens * (1 + this.continuations(output, settings.maxContinuations));
  }
}
