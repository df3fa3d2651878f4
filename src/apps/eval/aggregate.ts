/**
 * A suite's figures in the terms of the papers it is compared with: MetaGPT's Table 1 (running time,
 * tokens, files, lines, tokens per line — averages per spec) and ChatDev's executability and
 * completeness (shares of the specs).
 */
import type { Aggregates, SpecResult } from './spec-result.ts';

const average = (values: number[]): number => (values.length === 0 ? 0 : round(values.reduce((a, b) => a + b, 0) / values.length, 1));
const share = (hits: number, of: number): number | null => (of === 0 ? null : round(hits / of, 3));
const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** The criteria proven over the criteria of every run that traced them, P0 apart. */
function criteriaRates(results: readonly SpecResult[]): Pick<Aggregates, 'criteriaProvenRate' | 'p0ProvenRate'> {
  const traced = results.flatMap((r) => (r.criteria ? [r.criteria] : []));
  const sum = (pick: (c: (typeof traced)[number]) => number) => traced.reduce((n, c) => n + pick(c), 0);
  return {
    criteriaProvenRate: share(
      sum((c) => c.proven),
      sum((c) => c.total),
    ),
    p0ProvenRate: share(
      sum((c) => c.p0Proven),
      sum((c) => c.p0Total),
    ),
  };
}

export function aggregate(results: readonly SpecResult[], suiteWallMs: number): Aggregates {
  const tokens = results.map((r) => r.promptTokens + r.completionTokens);
  const lines = results.reduce((sum, r) => sum + r.lines, 0);
  const withEntry = results.filter((r) => r.entryRuns !== null);
  const withChecks = results.filter((r) => r.checks.length > 0);
  const costs = results.map((r) => r.costUsd);
  return {
    specs: results.length,
    done: results.filter((r) => r.outcome === 'done').length,
    avgRunningTimeS: average(results.map((r) => r.wallMs / 1000)),
    avgTokens: average(tokens),
    avgPromptTokens: average(results.map((r) => r.promptTokens)),
    avgCompletionTokens: average(results.map((r) => r.completionTokens)),
    avgFiles: average(results.map((r) => r.files)),
    avgLines: average(results.map((r) => r.lines)),
    tokensPerLine: lines === 0 ? null : round(tokens.reduce((a, b) => a + b, 0) / lines, 1),
    executability: share(withEntry.filter((r) => r.entryRuns).length, withEntry.length),
    completeness: share(results.filter((r) => r.complete && r.files > 0).length, results.length) ?? 0,
    testsPassRate: share(results.filter((r) => r.tests?.allPassed).length, results.length) ?? 0,
    ...criteriaRates(results),
    checksPassRate: share(withChecks.filter((r) => r.checks.every((c) => c.passed)).length, withChecks.length),
    totalCalls: results.reduce((sum, r) => sum + r.calls, 0),
    // A total is only a total when every run had a price.
    totalCostUsd: costs.some((c) => c === null)
      ? null
      : round(
          costs.reduce((a: number, b) => a + (b ?? 0), 0),
          4,
        ),
    suiteWallMs,
  };
}
