/** The context every SOP machine carries. Plain JSON, so a snapshot can be persisted and restored. */
import { z } from 'zod';

export interface RoleContext {
  /** Named values kept by `keep` (drafts, reviews, test reports). */
  slots: Record<string, unknown>;
  counters: Record<string, number>;
  /** Files waiting to be worked on, in order. */
  queue: string[];
  /** The file being worked on (the key of per-file calls). */
  current: string | null;
  /** Files finished since the queue was last filled. */
  done: string[];
  /** The board message that started the current piece of work. */
  trigger: string | null;
  /** The last error noted by `noteError` (e.g. why a task graph was rejected). */
  error: string | null;
  /**
   * Every error noted by `noteError` since the last `clearError`, oldest first: a correction loop shows
   * each of its rounds' errors, not only the last. Absent in a context saved before it was kept.
   */
  errors?: string[];
  /** Failure signatures of test reports, oldest first. */
  failures: string[];
  /**
   * How many `ask` calls finished, per action and key (and approval rounds, per gate and key). With
   * `published`, this gives every effect of a step an identity — see src/engine/effect-identity.ts.
   */
  asks: Record<string, number>;
  /** How many messages this role has posted. */
  published: number;
  /** Fingerprints of values kept by `remember`, per name, oldest first — for `repeats`. */
  history: Record<string, string[]>;
  /**
   * Final contents of files written in this batch but maybe not yet on the board (set by `eachFile` for
   * a file's job: the files it depends on), so the `dependencies` view does not wait for publication.
   */
  written?: Record<string, string>;
}

/** What `eachFile` hands back, merged into the role's context on done (see build-machine.ts). */
export const EachFileOutput = z.object({
  done: z.array(z.string()),
  published: z.number().int().min(0),
  asks: z.record(z.string(), z.number().int()),
  /** The `collect` slot and what the files' machines kept in it, joined. */
  collected: z.object({ slot: z.string(), value: z.array(z.unknown()) }).optional(),
});
export type EachFileOutput = z.infer<typeof EachFileOutput>;

export const initialContext = (): RoleContext => ({
  slots: {},
  counters: {},
  queue: [],
  current: null,
  done: [],
  trigger: null,
  error: null,
  failures: [],
  asks: {},
  published: 0,
  history: {},
});
