/**
 * The schemas of what a run leaves in `.sopworks/`, as the review tools read them. They accept fields
 * they do not know (a newer sopworks may add some) and require only what the review shows.
 */
import { z } from 'zod';

export const UsageTotals = z.looseObject({
  calls: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  repairs: z.number().default(0),
  /** Of the prompt tokens, those a cache served, and the prompt tokens of the calls whose provider said so (absent before issue 42). */
  cachedPromptTokens: z.number().default(0),
  cacheReportedTokens: z.number().optional(),
});
export type UsageTotals = z.infer<typeof UsageTotals>;

export const UsageReport = z.looseObject({
  total: UsageTotals,
  byRole: z.record(z.string(), UsageTotals),
  byAction: z.record(z.string(), UsageTotals),
});

/** `.sopworks/run.json`: written when a run starts, rewritten with the outcome when it ends. */
export const RunInfo = z.looseObject({
  spec: z.string(),
  project: z.string(),
  model: z.string(),
  /** Absolute folder of the SOP files the run used. */
  sops: z.string(),
  /** Absolute folder of the role profiles and templates the run used. */
  roles: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  outcome: z.string().optional(),
  reason: z.string().optional(),
  /** When a run the endpoint's limit paused can go on (the limit's reset). */
  resumeAt: z.string().optional(),
  /** Time at work, summed over its processes: waiting (for a person, for a resume) not counted. */
  wallMs: z.number().optional(),
  usage: UsageReport.optional(),
});
export type RunInfo = z.infer<typeof RunInfo>;

/** One attempt of one model call, from `.sopworks/exchanges.jsonl`. */
export const Exchange = z.looseObject({
  role: z.string(),
  action: z.string(),
  key: z.string().nullable().default(null),
  attempt: z.number().int().min(1),
  messages: z.array(z.looseObject({ role: z.string(), content: z.string() })).default([]),
  reply: z.string(),
  finishReason: z.string().nullable().optional(),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), cachedPromptTokens: z.number().optional() }),
  usageCounted: z.boolean().optional(),
  ok: z.boolean(),
  error: z.string().nullable().optional(),
  ms: z.number().optional(),
  at: z.string().optional(),
});
export type Exchange = z.infer<typeof Exchange>;

/** `.sopworks/roles/<roleId>.json`: where a role's SOP machine is, or stopped. */
export const RoleState = z.looseObject({
  role: z.string().min(1),
  /** A dotted state path, e.g. "writing" or "review.deciding". */
  state: z.string().min(1),
  /** "active", "done", "error" or "stopped". */
  status: z.string().min(1),
  updatedAt: z.string().optional(),
});
export type RoleState = z.infer<typeof RoleState>;
