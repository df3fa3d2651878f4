/**
 * Model usage per role and per action. A finished run has it in run.json (with cost, where the run
 * recorded one); a run in progress has it summed from its exchanges so far. Pure.
 */
import type { Exchange, RunInfo, UsageTotals } from './run-files.ts';

export interface UsageRow {
  name: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those a cache served, as the provider reported them. */
  cachedPromptTokens: number;
  /** The share of the prompt tokens the cache served, of the calls whose provider said; null when none said. */
  cacheHitRate: number | null;
  repairs: number;
  /** Cost fields as recorded (e.g. costUsd), by name; null where the run could not price a call. */
  costs: Record<string, number | null>;
}

export interface UsageSummary {
  /** Where the numbers come from. */
  source: 'run.json' | 'exchanges';
  total: UsageRow;
  byRole: UsageRow[];
  byAction: UsageRow[];
  /** The cost fields present in any row, in a stable order. */
  costFields: string[];
}

const COST_FIELD = /cost/i;

function row(name: string, totals: UsageTotals): UsageRow {
  const costs: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(totals)) {
    if (COST_FIELD.test(key) && (typeof value === 'number' || value === null)) costs[key] = value;
  }
  // A run recorded before the reported share was kept has no whole to divide by: its hit rate is not known.
  const reported = totals.cacheReportedTokens ?? 0;
  return {
    name,
    calls: totals.calls,
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    cachedPromptTokens: totals.cachedPromptTokens,
    cacheHitRate: reported > 0 ? totals.cachedPromptTokens / reported : null,
    repairs: totals.repairs,
    costs,
  };
}

const emptyRow = (name: string): UsageRow => ({
  name,
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  cachedPromptTokens: 0,
  cacheHitRate: null,
  repairs: 0,
  costs: {},
});

function fromExchanges(exchanges: readonly Exchange[]): Omit<UsageSummary, 'costFields'> {
  const total = emptyRow('total');
  const roles = new Map<string, UsageRow>();
  const actions = new Map<string, UsageRow>();
  const rowOf = (map: Map<string, UsageRow>, name: string) => map.get(name) ?? map.set(name, emptyRow(name)).get(name)!;
  const reported = new Map<UsageRow, number>();
  for (const exchange of exchanges) {
    const cached = exchange.usage.cachedPromptTokens;
    for (const target of [total, rowOf(roles, exchange.role), rowOf(actions, `${exchange.role}/${exchange.action}`)]) {
      // Each attempt after the first is a re-ask within the same call.
      if (exchange.attempt === 1) target.calls += 1;
      else target.repairs += 1;
      target.promptTokens += exchange.usage.promptTokens;
      target.completionTokens += exchange.usage.completionTokens;
      if (cached === undefined) continue;
      target.cachedPromptTokens += cached;
      reported.set(target, (reported.get(target) ?? 0) + exchange.usage.promptTokens);
    }
  }
  for (const [row, whole] of reported) row.cacheHitRate = whole > 0 ? row.cachedPromptTokens / whole : null;
  return { source: 'exchanges', total, byRole: [...roles.values()], byAction: [...actions.values()] };
}

export function usageSummary(info: RunInfo | null, exchanges: readonly Exchange[]): UsageSummary {
  const base = info?.usage
    ? {
        source: 'run.json' as const,
        total: row('total', info.usage.total),
        byRole: Object.entries(info.usage.byRole).map(([name, totals]) => row(name, totals)),
        byAction: Object.entries(info.usage.byAction).map(([name, totals]) => row(name, totals)),
      }
    : fromExchanges(exchanges);
  const costFields = [...new Set([base.total, ...base.byRole, ...base.byAction].flatMap((r) => Object.keys(r.costs)))].sort();
  return { ...base, costFields };
}
