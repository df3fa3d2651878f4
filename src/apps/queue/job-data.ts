/**
 * A queued run: everything a worker on any machine needs to start it — or, after a worker died, to
 * resume it from its folder on the shared storage. Validated on both ends, and signed: whoever can
 * write to Redis can write a job, so a worker runs only one whose signature (job-signature.ts) proves
 * it was made by someone holding the queue's secret — and even then only within its own limits
 * (job-admission.ts).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';

/** The BullMQ queue every sopworks submitter and worker share. */
export const QUEUE_NAME = 'sopworks-runs';

/** The most characters of instructions a job carries (a run shows the roles its first 2,000 tokens anyway). */
export const MAX_JOB_INSTRUCTIONS = 64 * 1024;

/**
 * The flags of `run` a job carries (`submit`'s QueuedFlagsAsk), as values `run`'s request takes again —
 * the worker's start checks them as `run` does; the run keeps them in its run.json for every way it is
 * continued. Each absent one is `run`'s default.
 */
export const QueuedRunFlags = z
  .object({
    until: z.string(),
    approve: z.array(z.string()),
    budget: z.number(),
    maxTokens: z.number(),
    /** As it was written (`30m`, `1h30m`): the outcome quotes it. */
    maxTime: z.string(),
    engineers: z.number(),
    /** `role=model`, each. */
    modelFor: z.array(z.string()),
  })
  .partial()
  .strict();
export type QueuedRunFlags = z.infer<typeof QueuedRunFlags>;

export const JobFields = z.object({
  /** The sopworks version that submitted it: a worker of another version hands the job back. */
  version: z.string(),
  name: z.string(),
  spec: z.string(),
  /** Absolute scenario file (on the shared storage), or null for the configured model. */
  scenario: z.string().nullable(),
  /** Absolute folder of projects, on storage every worker reaches; the run is <out>/<name>. */
  out: z.string(),
  /** The configured endpoint ('openai'), or null for the scenario's scripted model. */
  llm: z.literal('openai').nullable(),
  model: z.string().nullish(),
  sops: z.string(),
  roles: z.string(),
  allowUnsandboxed: z.boolean(),
  /**
   * `submit --instructions FILE`: the file's text, read by the submitter (a worker may not reach the file),
   * text only and bounded; absent or null: none. The run's roles get it as `run --instructions` gives it.
   */
  instructions: z
    .string()
    .max(MAX_JOB_INSTRUCTIONS, `at most ${MAX_JOB_INSTRUCTIONS} characters`)
    .refine((text) => !text.includes('\0') && text.trim() !== '', 'text that is not blank')
    .nullish(),
  /** `submit --until/--approve/--budget/…`: the flags of `run` the queued run starts with; absent or null: none. */
  flags: QueuedRunFlags.nullish(),
  /** `eval --chaos`: the share of the scenario's replies spoiled and the seed; absent or null: a clean run. */
  chaos: z.object({ rate: z.number().min(0).max(1), seed: z.number().int().min(0) }).nullish(),
  submittedAt: z.string(),
});
export type JobFields = z.infer<typeof JobFields>;

/** A job as it is stored: its fields and their HMAC (job-signature.ts). */
export const JobData = JobFields.extend({ signature: z.string() });
export type JobData = z.infer<typeof JobData>;

/** What a worker writes as the job's progress once it made the run folder: a later worker expects it. */
export const JobProgress = z.object({
  folderMade: z.boolean(),
  worker: z.string(),
  /** The board's length when a worker last took the run up, and how many take-ups in a row found it no longer. */
  board: z.number().int().nonnegative().default(0),
  idleTakeUps: z.number().int().nonnegative().default(0),
});
export type JobProgress = z.infer<typeof JobProgress>;

/**
 * A run whose take-ups find its board as the one before more than this many times in a row (five
 * take-ups without moving on) stops its workers every time — it crashes them, or exhausts their memory:
 * its job fails instead of taking down worker after worker. Take-ups after which the run moved on do not
 * count: a worker killed for another reason is no sign.
 */
export const MAX_IDLE_TAKE_UPS = 3;

/** Take-ups in a row that found the run's board as long as the one before: 0 when it moved on (or this is the first). */
export function idleTakeUps(before: JobProgress | null, board: number): number {
  return before?.folderMade && board === before.board ? before.idleTakeUps + 1 : 0;
}

/** What a finished job returns. */
export const JobResult = z.object({ outcome: z.string(), reason: z.string(), projectDir: z.string(), worker: z.string() });
export type JobResult = z.infer<typeof JobResult>;

/**
 * One job per project folder: submitting the same project twice while it is queued adds nothing.
 * (BullMQ job ids may not contain ':'; the name keeps it readable, the hash keeps it unique.)
 */
export const jobIdFor = (data: Pick<JobData, 'out' | 'name'>): string =>
  `${data.name}-${createHash('sha256').update(path.join(data.out, data.name)).digest('hex').slice(0, 10)}`;

export const projectDirOf = (data: Pick<JobData, 'out' | 'name'>): string => path.join(data.out, data.name);
