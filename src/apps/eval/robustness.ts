/**
 * The robustness figures of a repeated suite: every run listed (its spec, repeat, seed, outcome, tree
 * and faults), and per spec and overall — runs, done, done with the same tree as the reference run
 * (the clean run under --chaos, else the first repeat), re-asks and retries per run, tokens per run
 * (median and spread), pass@k where the suite has checks, the share of acceptance criteria proven, and what went wrong: runs that crashed or
 * ended without an outcome, faults the gateway did not handle as their class calls for.
 */
import { z } from 'zod';

export const InjectedFaultRecord = z.object({
  fault: z.string(),
  expect: z.enum(['accepted', 'reasked', 'retried']),
  /** Where: the call and the attempt. */
  role: z.string(),
  action: z.string(),
  key: z.string().nullable(),
  attempt: z.number().int(),
  /** Whether the gateway made of it what its class calls for (accepted as valid, or re-asked). */
  handled: z.boolean(),
});
export type InjectedFaultRecord = z.infer<typeof InjectedFaultRecord>;

export const RunResult = z.object({
  spec: z.string(),
  /** 0: the clean run chaos runs are compared with; 1..n: the repeats. */
  repeat: z.number().int().min(0),
  /** The chaos seed of the run; null for a clean run. */
  seed: z.number().int().nullable(),
  chaos: z.number().nullable(),
  /** The run's outcome; `none` when it ended without one (a crash), `not-run` when it could not start. */
  outcome: z.string(),
  /** The git tree the run ended with; null when it made no commit. */
  tree: z.string().nullable(),
  /** Whether the tree is the reference run's; null for the reference run itself. */
  sameTree: z.boolean().nullable(),
  /** Whether the suite's checks all passed; null when the spec has none. */
  checksPassed: z.boolean().nullable(),
  /** The share of its acceptance criteria the run proved by a passing test; null without a coverage matrix (absent from older results). */
  criteriaProven: z.number().nullable().optional(),
  reasks: z.number().int(),
  retries: z.number().int(),
  tokens: z.number().int(),
  /** An error that stopped the run from reaching an outcome (a crash), or null. */
  error: z.string().nullable(),
  faults: z.array(InjectedFaultRecord),
});
export type RunResult = z.infer<typeof RunResult>;

export const RobustnessRow = z.object({
  /** The spec's name, or `all` for the whole suite. */
  spec: z.string(),
  runs: z.number().int(),
  done: z.number().int(),
  sameTree: z.number().int(),
  /** Runs that crashed or ended without an outcome. */
  crashed: z.number().int(),
  reasksPerRun: z.number(),
  retriesPerRun: z.number(),
  tokensMedian: z.number(),
  /** The lowest and highest tokens of a run. */
  tokensMin: z.number(),
  tokensMax: z.number(),
  faults: z.number().int(),
  /** Injected faults the gateway did not handle as their class calls for (accepted a lost meaning, re-asked a kept one). */
  faultsMishandled: z.number().int(),
  /** pass@1 and pass@k (k = the runs) of the suite's checks; null without checks. */
  passAt1: z.number().nullable(),
  passAtK: z.number().nullable(),
  /** The runs' criteria-proven rates, averaged; null when no run built a coverage matrix (absent from older results). */
  criteriaProven: z.number().nullable().optional(),
});
export type RobustnessRow = z.infer<typeof RobustnessRow>;

/** The repeats' figures, per spec (in the suite's order) and then `all`. */
export function robustness(runs: readonly RunResult[], specs: readonly string[]): RobustnessRow[] {
  const repeats = runs.filter((r) => r.repeat > 0);
  return [
    ...specs.map((spec) =>
      row(
        spec,
        repeats.filter((r) => r.spec === spec),
      ),
    ),
    row('all', repeats),
  ];
}

function row(spec: string, runs: readonly RunResult[]): RobustnessRow {
  const tokens = runs.map((r) => r.tokens).sort((a, b) => a - b);
  const per = (total: number) => (runs.length === 0 ? 0 : Math.round((total / runs.length) * 100) / 100);
  const faults = runs.flatMap((r) => r.faults);
  return {
    spec,
    runs: runs.length,
    done: runs.filter((r) => r.outcome === 'done').length,
    sameTree: runs.filter((r) => r.outcome === 'done' && r.sameTree === true).length,
    crashed: runs.filter((r) => r.error !== null || r.outcome === 'none').length,
    reasksPerRun: per(runs.reduce((n, r) => n + r.reasks, 0)),
    retriesPerRun: per(runs.reduce((n, r) => n + r.retries, 0)),
    tokensMedian: median(tokens),
    tokensMin: tokens[0] ?? 0,
    tokensMax: tokens.at(-1) ?? 0,
    faults: faults.length,
    faultsMishandled: faults.filter((f) => !f.handled).length,
    ...passAt(runs),
    criteriaProven: meanRate(runs.flatMap((r) => (r.criteriaProven === null || r.criteriaProven === undefined ? [] : [r.criteriaProven]))),
  };
}

const meanRate = (rates: readonly number[]): number | null =>
  rates.length === 0 ? null : Math.round((rates.reduce((a, b) => a + b, 0) / rates.length) * 1000) / 1000;

const median = (sorted: readonly number[]): number => {
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * pass@k as Chen et al. (2021) estimate it from n samples of which c pass: 1 − C(n−c, k) / C(n, k),
 * averaged over the specs; k is the number of runs of a spec. Null when no run has checks.
 */
function passAt(runs: readonly RunResult[]): { passAt1: number | null; passAtK: number | null } {
  const bySpec = new Map<string, RunResult[]>();
  for (const run of runs) if (run.checksPassed !== null) bySpec.set(run.spec, [...(bySpec.get(run.spec) ?? []), run]);
  if (bySpec.size === 0) return { passAt1: null, passAtK: null };
  const estimate = (n: number, c: number, k: number) => (n - c < k ? 1 : 1 - combinations(n - c, k) / combinations(n, k));
  let one = 0;
  let all = 0;
  for (const samples of bySpec.values()) {
    const c = samples.filter((r) => r.checksPassed).length;
    one += estimate(samples.length, c, 1);
    all += estimate(samples.length, c, samples.length);
  }
  const round = (value: number) => Math.round((value / bySpec.size) * 1000) / 1000;
  return { passAt1: round(one), passAtK: round(all) };
}

function combinations(n: number, k: number): number {
  let result = 1;
  for (let i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
  return result;
}
