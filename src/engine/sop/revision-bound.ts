/**
 * How many more times a SOP may send a step's output back to be revised: the `below` bound in the state
 * its onDone leads to (a review's `deciding`: approved → on; `below revisions max 2` → revising; else
 * on, with the review's issues left open). Given to the step when it runs, so a reviewer's prompt says
 * whether its issues will still be acted on — from the SOP's own bound, never a number written into a
 * prompt, so the two cannot drift. Pure.
 */
import type { StateNodeConfig } from '../steps/index.ts';

/** The counter a loop counts and its bound, as the `below` guard names them. */
export interface RevisionBound {
  counter: string;
  max: number;
}

const asList = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** The first `below` bound among the always-transitions of the state `onDone` leads to; null when there is none. */
export function revisionBoundOf(onDone: unknown, siblings: Readonly<Record<string, StateNodeConfig>>): RevisionBound | null {
  for (const transition of asList(onDone)) {
    const target = typeof transition === 'string' ? transition : (transition as { target?: unknown } | null)?.target;
    const state = typeof target === 'string' ? siblings[target.replace(/^\./, '')] : undefined;
    for (const next of asList(state?.always)) {
      const guard = (next as { guard?: { type?: unknown; params?: { counter?: unknown; max?: unknown } } } | null)?.guard;
      if (guard?.type === 'below' && typeof guard.params?.counter === 'string' && typeof guard.params.max === 'number') {
        return { counter: guard.params.counter, max: guard.params.max };
      }
    }
  }
  return null;
}

/** The revisions still allowed after this step, given the role's counters: 0 on the last round. */
export const revisionsLeft = (bound: RevisionBound | null, counters: Readonly<Record<string, number>>): number | null =>
  bound === null ? null : Math.max(0, bound.max - (counters[bound.counter] ?? 0));
