/**
 * The path a run took through a SOP, as far as its record tells: a state that invokes a model action
 * (`input.action`) was passed through when the run's exchanges hold a call of that action by that role.
 * Roles record only their current state, and a per-file SOP records none, so the model calls are the
 * trace. Pure.
 */
import type { SopFile, StateNodeConfig } from '../../engine/steps/index.ts';

const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Each state (dotted path) of a SOP with the model actions it invokes. */
export function actionStates(sop: SopFile): { state: string; actions: string[] }[] {
  const found: { state: string; actions: string[] }[] = [];
  const walk = (states: Record<string, StateNodeConfig>, parent: string[]) => {
    for (const [name, node] of Object.entries(states)) {
      const path = [...parent, name];
      const actions = list(node.invoke).flatMap((invoke) => {
        const action = (invoke.input as { action?: unknown } | undefined)?.action;
        return typeof action === 'string' ? [action] : [];
      });
      if (actions.length > 0) found.push({ state: path.join('.'), actions });
      if (node.states) walk(node.states, path);
    }
  };
  walk(sop.states, []);
  return found;
}

/** The states of `sop` the run passed through, given the actions the role called. */
export function visitedStates(sop: SopFile, called: ReadonlySet<string>): string[] {
  return actionStates(sop)
    .filter(({ actions }) => actions.some((a) => called.has(a)))
    .map(({ state }) => state);
}
