/** Usage of the model, per role and per action: calls, tokens, re-asks. */
import { modelIdentity } from './model-identity.ts';

export interface CallRecord {
  role: string;
  action: string;
  key: string | null;
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those a cache served (a provider's prefix cache, the local engine's reused state); absent: the provider did not say. */
  cachedPromptTokens?: number;
  /** Whether the counts came from the provider or from the bundled tokenizer. */
  counted: boolean;
  /** Re-asks after an invalid reply. */
  repairs: number;
  /** Transport retries (429, 5xx, timeouts) across the call's attempts. */
  retries: number;
  /** US dollars; null when the model's price is unknown. */
  costUsd: number | null;
  ms: number;
  ok: boolean;
  /** The model that gave the last answer (its label), when known. */
  model?: string;
}

export interface UsageTotals {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those a cache served. */
  cachedPromptTokens: number;
  /** The prompt tokens of the calls whose provider said what its cache served: the hit rate's whole. */
  cacheReportedTokens: number;
  repairs: number;
  retries: number;
  /** US dollars; null when any call's price is unknown. */
  costUsd: number | null;
}

const empty = (): UsageTotals => ({
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  cachedPromptTokens: 0,
  cacheReportedTokens: 0,
  repairs: 0,
  retries: 0,
  costUsd: 0,
});

/**
 * Of the prompt tokens of the calls whose provider said what its cache served, the share it served, as the
 * provider reported it; null when none said (a scripted model, a server without the count).
 */
export const cacheHitRate = (u: { cachedPromptTokens: number; cacheReportedTokens: number }): number | null =>
  u.cacheReportedTokens > 0 ? u.cachedPromptTokens / u.cacheReportedTokens : null;

function add(into: UsageTotals, record: CallRecord): void {
  into.calls += 1;
  into.promptTokens += record.promptTokens;
  into.completionTokens += record.completionTokens;
  into.cachedPromptTokens += record.cachedPromptTokens ?? 0;
  if (record.cachedPromptTokens !== undefined) into.cacheReportedTokens += record.promptTokens;
  into.repairs += record.repairs;
  into.retries += record.retries;
  into.costUsd = into.costUsd === null || record.costUsd === null ? null : into.costUsd + record.costUsd;
}

export class UsageMeter {
  readonly records: CallRecord[] = [];

  record(record: CallRecord): void {
    this.records.push(record);
  }

  total(): UsageTotals {
    const total = empty();
    for (const r of this.records) add(total, r);
    return total;
  }

  /** Totals by role, in the order roles first called the model. */
  byRole(): Map<string, UsageTotals> {
    return this.group((r) => r.role);
  }

  /** Totals by the model that answered, for runs with a model per role or fallbacks; one model named two ways is one. */
  byModel(): Map<string, UsageTotals> {
    return this.group((r) => (r.model === undefined ? 'unknown' : modelIdentity(r.model)));
  }

  byAction(): Map<string, UsageTotals> {
    return this.group((r) => `${r.role}/${r.action}`);
  }

  private group(key: (r: CallRecord) => string): Map<string, UsageTotals> {
    const groups = new Map<string, UsageTotals>();
    for (const r of this.records) {
      const k = key(r);
      if (!groups.has(k)) groups.set(k, empty());
      add(groups.get(k)!, r);
    }
    return groups;
  }
}
