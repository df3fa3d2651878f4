/** The context every SOP machine carries. Plain JSON, so a snapshot can be persisted and restored. */
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
  /** Failure signatures of test reports, oldest first. */
  failures: string[];
}

export const initialContext = (): RoleContext => ({
  slots: {},
  counters: {},
  queue: [],
  current: null,
  done: [],
  trigger: null,
  error: null,
  failures: [],
});
