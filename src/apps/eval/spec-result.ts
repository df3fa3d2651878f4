/**
 * One row of an evaluation: what a spec's run produced, measured after it ended. The JSON form of a
 * suite's results (eval.json) is read back by `eval --compare` and by a resumed suite, so it has a
 * schema.
 */
import { z } from 'zod';
import { RUN_OUTCOMES } from '../../company/index.ts';
import { RobustnessRow, RunResult } from './robustness.ts';

/** How many acceptance criteria a run proved by a passing test, of how many (P0 apart). */
export const Criteria = z.object({ proven: z.number().int(), total: z.number().int(), p0Proven: z.number().int(), p0Total: z.number().int() });

export const SpecResult = z.object({
  name: z.string(),
  spec: z.string(),
  /** The provider as shown to the user, e.g. "openai:gpt-4o-mini"; null when the run never started. */
  model: z.string().nullable(),
  /** The run's outcome; `not-run` when it could not start (the reason says why). */
  outcome: z.enum([...RUN_OUTCOMES, 'not-run']),
  reason: z.string(),
  /** The generated tests of the last round (counts null when the runner's output named none); null when none ran. */
  tests: z.object({ allPassed: z.boolean(), counts: z.object({ passed: z.number().int(), failed: z.number().int() }).nullable() }).nullable(),
  /** The acceptance criteria the run's last coverage matrix proves (P0 apart); null without one (absent from older results). */
  criteria: Criteria.nullable().optional(),
  /** Whether the entry point ran (exit 0); null when the suite gives none. */
  entryRuns: z.boolean().nullable(),
  checks: z.array(z.object({ name: z.string(), passed: z.boolean(), output: z.string() })),
  /** Code files (the work tree without docs/, *.md and .gitignore) and their non-blank lines. */
  files: z.number().int(),
  lines: z.number().int(),
  /** Whether no code file holds a placeholder (TODO, FIXME, "not implemented"): ChatDev's completeness. */
  complete: z.boolean(),
  calls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  /** (prompt + completion tokens) per line of code; null without code. */
  tokensPerLine: z.number().nullable(),
  costUsd: z.number().nullable(),
  /** The run's own wall time, summed over its processes (run.json). */
  wallMs: z.number(),
});
export type SpecResult = z.infer<typeof SpecResult>;

export const Aggregates = z.object({
  specs: z.number().int(),
  done: z.number().int(),
  /** MetaGPT, Table 1: averages per spec, and tokens per line over the whole suite. */
  avgRunningTimeS: z.number(),
  avgTokens: z.number(),
  avgPromptTokens: z.number(),
  avgCompletionTokens: z.number(),
  avgFiles: z.number(),
  avgLines: z.number(),
  tokensPerLine: z.number().nullable(),
  /** ChatDev: the share of specs whose entry point runs (of those that name one), and with no placeholder. */
  executability: z.number().nullable(),
  completeness: z.number(),
  /** The share of specs whose generated tests all passed, and whose checks all passed. */
  testsPassRate: z.number(),
  /**
   * The share of the suite's acceptance criteria proven by a passing test (all runs' criteria together),
   * P0 apart; null when no run built a coverage matrix (absent from older results).
   */
  criteriaProvenRate: z.number().nullable().optional(),
  p0ProvenRate: z.number().nullable().optional(),
  checksPassRate: z.number().nullable(),
  totalCalls: z.number().int(),
  totalCostUsd: z.number().nullable(),
  /** The suite's own wall time (start to end of this eval, runs in parallel). */
  suiteWallMs: z.number(),
});
export type Aggregates = z.infer<typeof Aggregates>;

export const SuiteResults = z.object({
  suite: z.string(),
  file: z.string(),
  /** Which model ran it (the provider label of the first run), and the sopworks version. */
  model: z.string(),
  version: z.string(),
  finishedAt: z.string(),
  specs: z.array(SpecResult),
  aggregates: Aggregates,
  /** `--repeat`/`--chaos`: how many runs of each spec, and the first repeat's chaos (null: clean runs). */
  asked: z.object({ repeat: z.number().int().min(1), chaos: z.object({ rate: z.number(), seed: z.number().int() }).nullable() }).optional(),
  /** Every run made, reference runs and repeats (absent in results of older versions). */
  runs: z.array(RunResult).optional(),
  /** The repeats' figures per spec and overall (robustness.ts); absent for a suite run once, clean. */
  robustness: z.array(RobustnessRow).optional(),
});
export type SuiteResults = z.infer<typeof SuiteResults>;
