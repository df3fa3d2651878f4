/**
 * The exit codes of a run (documented in the README): an outcome's, and an error's by its code — never by
 * its message's text. The CLI returns them; eval and the queue read a run's the same way.
 */

import type { RunOutcome } from '../company/index.ts';
import { userCanFix } from '../ground/errors.ts';

export const EXIT = {
  done: 0,
  failed: 1,
  usage: 2,
  budgetExhausted: 3,
  awaitingApproval: 4,
  paused: 5,
  /** Delivered, but a P0 acceptance criterion has no passing test (or accepted check): the spec is not met. */
  criteriaUnmet: 6,
  /** The time limit (`--max-time`) was reached; as GNU timeout says it. */
  timedOut: 124,
  interrupted: 130,
} as const;

/** The exit code of an error a run or a command threw: 2 for input the user can fix, else 1. */
export const exitCodeOfError = (error: unknown): number => (userCanFix(error) ? EXIT.usage : EXIT.failed);

/** The exit code of each outcome but a failure (1). */
const STOPPED_EXIT: Partial<Record<RunOutcome, number>> = {
  done: EXIT.done,
  'criteria-unmet': EXIT.criteriaUnmet,
  paused: EXIT.paused,
  'awaiting-approval': EXIT.awaitingApproval,
  'timed-out': EXIT.timedOut,
  interrupted: EXIT.interrupted,
  'budget-exhausted': EXIT.budgetExhausted,
};

export const exitCodeOfOutcome = (outcome: RunOutcome): number => STOPPED_EXIT[outcome] ?? EXIT.failed;
