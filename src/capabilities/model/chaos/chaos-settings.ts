/** What `--chaos <rate>` and `--seed <n>` ask for; kept in run.json, so that `resume` meets the same faults. */
import { z } from 'zod';

export const ChaosSettings = z.object({
  /** The share of first asks whose reply is spoiled, from 0 to 1. */
  rate: z.number().min(0).max(1),
  /** Which replies, and how: the same seed spoils the same replies the same way. */
  seed: z.number().int().min(0),
});
export type ChaosSettings = z.infer<typeof ChaosSettings>;

export const DEFAULT_CHAOS_SEED = 1;
