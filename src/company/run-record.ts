/**
 * `.sopworks/run.json`: what a run was started with (so `resume` continues it with the same SOPs, model
 * and scenario) and, once it stops, how it ended and what it used.
 */
import path from 'node:path';
import { z } from 'zod';
import { GATES } from '../capabilities/approvals/index.ts';
import { RoleModelRecord } from '../capabilities/model/index.ts';
import { RunFigures } from '../capabilities/project/index.ts';
import { FileRunStore, RUN_OUTCOMES, type RunOutcome, type RunStore } from '../engine/run/index.ts';
import { SopworksError } from '../ground/errors.ts';

export { RUN_OUTCOMES, type RunOutcome };

export const LlmRecord = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('openai'),
    model: z.string(),
    /** Each role's models (a model per role, fallbacks), when any role has its own; `resume` asks the same. */
    roles: z.record(z.string(), RoleModelRecord).optional(),
  }),
  z.object({
    kind: z.literal('scripted'),
    file: z.string(),
    /** `--chaos`: the share of replies spoiled and the seed that chose them (capabilities/model/chaos/). */
    chaos: z.object({ rate: z.number().min(0).max(1), seed: z.number().int().min(0) }).optional(),
  }),
  /** `model`: the GGUF file's absolute path. */
  z.object({ kind: z.literal('local'), model: z.string() }),
]);
export type LlmRecord = z.infer<typeof LlmRecord>;

const Totals = z.object({
  calls: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  cachedPromptTokens: z.number().default(0),
  cacheReportedTokens: z.number().default(0),
  repairs: z.number(),
  retries: z.number().default(0),
  costUsd: z.number().nullable().default(null),
});

export const RunRecord = z
  .object({
    /** What the run was asked: a new project's spec, or a change run's request (the Requirement names each). */
    spec: z.string(),
    project: z.string(),
    llm: LlmRecord,
    /** The provider as shown to the user, e.g. "scripted:examples/wordfreq.yaml". */
    model: z.string(),
    sops: z.string(),
    roles: z.string(),
    startedAt: z.string(),
    resumedAt: z.array(z.string()).default([]),
    /** The run's limits (`--budget`, `--max-tokens`); `resume` keeps them unless given new ones. */
    budget: z.object({ usd: z.number().nullable(), tokens: z.number().nullable() }).default({ usd: null, tokens: null }),
    /** Approval gates (`--approve`, `--yes`) and questions first (`--clarify`); `resume` keeps them. */
    approvals: z
      .object({ gates: z.array(z.enum(GATES)), yes: z.boolean(), clarify: z.boolean().default(false) })
      .default({ gates: [], yes: false, clarify: false }),
    /** How many files the Engineer works on at once (`--concurrency`); `resume` keeps it. */
    concurrency: z.number().int().min(1).default(4),
    /** How many Engineers share the files (`--engineers`); `resume` keeps it. */
    engineers: z.number().int().min(1).default(1),
    /** The point the run stops at (`--until`, a SOP's `stopAt`), outcome `paused`; `resume` goes on to the end unless given another. */
    until: z.string().nullable().default(null),
    /** The instructions every role is shown (project-instructions.ts), as read at the start; `resume` keeps them. Absent: none. */
    instructions: z.string().optional(),
    finishedAt: z.string().optional(),
    outcome: z.enum(RUN_OUTCOMES).optional(),
    reason: z.string().optional(),
    /** When a run the endpoint's limit paused can go on (the limit's reset, ISO 8601); absent otherwise. */
    resumeAt: z.string().optional(),
    wallMs: z.number().optional(),
    usage: z
      .object({ total: Totals, byRole: z.record(z.string(), Totals), byAction: z.record(z.string(), Totals), byModel: z.record(z.string(), Totals).optional() })
      .optional(),
    /** Completeness, executability, tests and fast checks (src/capabilities/project/run-figures.ts), once the run stops. */
    figures: RunFigures.optional(),
  })
  .passthrough();
export type RunRecord = z.infer<typeof RunRecord>;

/** The run's record as its store holds it, checked; `where` names the store in an error. */
export async function readRecordOf(store: RunStore): Promise<RunRecord> {
  const value = await store.readRecord();
  const file = `${store.where}/run.json`;
  if (value === null) {
    throw new SopworksError('USAGE', `${path.dirname(store.where)} is not a sopworks run (no ${file}).`, {
      hint: 'Give the folder of a project made by `sopworks run`, e.g. output/wordfreq.',
    });
  }
  const parsed = RunRecord.safeParse(value);
  if (!parsed.success) throw new SopworksError('USAGE', `${file} is damaged: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** The record of the run whose state is in `stateDir` (a project's `.sopworks/`). */
export function readRunRecord(stateDir: string): Promise<RunRecord> {
  return readRecordOf(FileRunStore.of(path.dirname(stateDir)));
}
