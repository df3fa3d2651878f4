/** A run's usage totals as `--json` prints them: the counts, the cached tokens and the hit rate as the provider reported them. */
import { cacheHitRate } from '../../capabilities/model/index.ts';
import type { JsonLine } from './json-lines-schema.ts';

type Usage = NonNullable<Extract<JsonLine, { type: 'summary' }>['usage']>;

export interface Totals {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  /** Absent in a run.json written before the hit rate was kept: no rate then. */
  cacheReportedTokens?: number;
  repairs: number;
  retries: number | null;
  costUsd: number | null;
}

export const usageJson = (u: Totals): Usage => ({
  calls: u.calls,
  promptTokens: u.promptTokens,
  cachedPromptTokens: u.cachedPromptTokens,
  cacheHitRate: cacheHitRate({ cachedPromptTokens: u.cachedPromptTokens, cacheReportedTokens: u.cacheReportedTokens ?? 0 }),
  completionTokens: u.completionTokens,
  repairs: u.repairs,
  retries: u.retries,
  costUsd: u.costUsd,
});
