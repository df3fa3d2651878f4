/**
 * Where a run stands, in the words a header shows: at work, done, waiting for a person's decision,
 * stopped (and whether `resume` continues it), failed for good, or cut off before any outcome. Pure:
 * from the outcome run.json recorded, whether a process holds the lock, and the board (a failure its
 * SOP concluded is final: run-continuation.ts).
 */
import type { Message } from '../../engine/board/index.ts';
import { whyNotContinuable } from '../../engine/run/index.ts';

export type RunPhase = 'running' | 'done' | 'awaiting-decision' | 'stopped' | 'failed' | 'cut-off';

export interface PhaseFacts {
  running: boolean;
  /** The outcome the run ended with last (run.json), when it ended. */
  outcome: string | null;
}

export interface Phase {
  phase: RunPhase;
  /** The state in a few words: "in progress", "waiting for you" (a decision or answers), "interrupted". */
  label: string;
  /** Whether `sopworks resume` (or the page's Continue) would take the run further now. */
  continuable: boolean;
}

export function runPhase(facts: PhaseFacts, messages: readonly Pick<Message, 'type'>[]): Phase {
  if (facts.running) return { phase: 'running', label: 'in progress', continuable: false };
  switch (facts.outcome) {
    case null:
      return { phase: 'cut-off', label: 'stopped before an outcome', continuable: true };
    case 'done':
      return { phase: 'done', label: 'done', continuable: false };
    case 'awaiting-approval':
      return { phase: 'awaiting-decision', label: 'waiting for you', continuable: false };
    case 'failed':
      return whyNotContinuable(messages) ? { phase: 'failed', label: 'failed', continuable: false } : { phase: 'stopped', label: 'failed', continuable: true };
    // Delivered, a P0 criterion unproven when its rounds were spent: final, as a failure its SOP concluded.
    case 'criteria-unmet':
      return { phase: 'failed', label: 'criteria unmet', continuable: false };
    default:
      return { phase: 'stopped', label: facts.outcome.replace(/-/g, ' '), continuable: true };
  }
}
