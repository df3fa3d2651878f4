/**
 * Which steps of a SOP judge another step's output, so that its prompt can state their rules (a check
 * that sends the reply back must never apply a rule the prompt did not state): the steps invoked by the
 * state(s) a step's onDone leads to, when they have `rules`. Pure; the machine builder hands each step
 * its judges, and `judgedBy` renders their rules when the step runs.
 */
import type { Ports, StateNodeConfig, Vocabulary } from '../steps/index.ts';

/** A judging step as the SOP invokes it: its name and its (parsed) parameters. */
export interface Judge {
  src: string;
  params: unknown;
}

const asList = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** The judges of a step whose done-transitions are `onDone`, among the states `siblings` of its machine. */
export function judgesOf(onDone: unknown, siblings: Readonly<Record<string, StateNodeConfig>>, vocabulary: Vocabulary): Judge[] {
  return asList(onDone).flatMap((transition) => {
    const target = typeof transition === 'string' ? transition : (transition as { target?: unknown } | null)?.target;
    const state = typeof target === 'string' ? siblings[target.replace(/^\./, '')] : undefined;
    return asList(state?.invoke)
      .map((invoke) => invoke as { src?: unknown; input?: unknown })
      .filter((invoke) => typeof invoke.src === 'string' && vocabulary.steps[invoke.src]?.rules !== undefined)
      .map((invoke) => ({ src: invoke.src as string, params: invoke.input ?? {} }));
  });
}

/** The rules the judges state, in order, as the judged step's prompt shows them. */
export async function rulesOfJudges(
  judges: readonly Judge[],
  vocabulary: Vocabulary,
  ports: Ports,
  view: (name: string) => Promise<unknown>,
): Promise<string[]> {
  const rules = await Promise.all(judges.map((judge) => vocabulary.steps[judge.src]?.rules?.({ params: judge.params, view }, ports) ?? []));
  return rules.flat();
}
