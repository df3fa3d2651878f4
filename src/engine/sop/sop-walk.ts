/**
 * Walks a SOP file: its states (nested ones too), the steps they invoke, and the actions and guards
 * they name — each with its path in the YAML document, so a check can say where.
 * Parameters are parsed with the vocabulary's schemas; a reference whose parameters do not parse is
 * reported by resolveSopReferences and left out here (params: null).
 */
import type { z } from 'zod';
import type { SopFile, StateNodeConfig, Vocabulary } from '../steps/index.ts';

export type YamlPath = (string | number)[];

export interface StateEntry {
  /** State ids from the top, e.g. ["review", "deciding"]. */
  path: string[];
  at: YamlPath;
  node: StateNodeConfig;
}

export interface StepEntry<P = Record<string, unknown>> {
  state: StateEntry;
  src: string;
  /** The parsed parameters (defaults filled in), or null when src is unknown or they do not parse. */
  params: P | null;
  at: YamlPath;
  hasOnDone: boolean;
}

export interface ReferenceEntry {
  kind: 'action' | 'guard';
  type: string;
  params: Record<string, unknown> | null;
  at: YamlPath;
}

const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

export function statesOf(sop: SopFile): StateEntry[] {
  const found: StateEntry[] = [];
  const visit = (states: Record<string, StateNodeConfig>, parent: string[], at: YamlPath) => {
    for (const [id, node] of Object.entries(states)) {
      const entry = { path: [...parent, id], at: [...at, id], node };
      found.push(entry);
      if (node.states) visit(node.states, entry.path, [...entry.at, 'states']);
    }
  };
  visit(sop.states, [], ['states']);
  return found;
}

const parse = (schema: z.ZodType | undefined, value: unknown): Record<string, unknown> | null => {
  if (!schema) return null;
  const parsed = schema.safeParse(value ?? {});
  return parsed.success ? (parsed.data as Record<string, unknown>) : null;
};

export function stepsOf(sop: SopFile, vocabulary: Vocabulary): StepEntry[] {
  return statesOf(sop).flatMap((state) => {
    const invokes = state.node.invoke;
    const at = (i: number): YamlPath => (Array.isArray(invokes) ? [...state.at, 'invoke', i] : [...state.at, 'invoke']);
    return list(invokes).map((invoke, i) => ({
      state,
      src: invoke.src,
      params: parse(vocabulary.steps[invoke.src]?.params, invoke.input),
      at: at(i),
      hasOnDone: invoke.onDone !== undefined,
    }));
  });
}

/** The steps invoking one step of the vocabulary; `P`: its parameters' type. */
export function stepsNamed<P = Record<string, unknown>>(sop: SopFile, vocabulary: Vocabulary, src: string): StepEntry<P>[] {
  return stepsOf(sop, vocabulary).filter((step) => step.src === src) as StepEntry<P>[];
}

/** Calls `visit` for each transition in `value`: one transition, or each of a list (with its index in the path). */
export function eachTransition(value: unknown, at: YamlPath, visit: (transition: unknown, at: YamlPath) => void): void {
  if (Array.isArray(value)) value.forEach((t, i) => visit(t, [...at, i]));
  else if (value !== undefined) visit(value, at);
}

/** The `onDone` and `onError` of each step a state invokes, with their paths (a transition, a list of them, or undefined). */
export function invokeOutcomes(state: StateEntry): { value: unknown; at: YamlPath }[] {
  const invokes = state.node.invoke;
  return list(invokes).flatMap((invoke, i) => {
    const at: YamlPath = Array.isArray(invokes) ? [...state.at, 'invoke', i] : [...state.at, 'invoke'];
    return [
      { value: invoke.onDone, at: [...at, 'onDone'] },
      { value: invoke.onError, at: [...at, 'onError'] },
    ];
  });
}

/** Every action and guard a SOP names, in entry/exit lists and on transitions. */
export function referencesOf(sop: SopFile, vocabulary: Vocabulary): ReferenceEntry[] {
  const found: ReferenceEntry[] = [];
  const ref = (kind: ReferenceEntry['kind'], value: unknown, at: YamlPath) => {
    const { type, params } = typeof value === 'string' ? { type: value, params: {} } : (value as { type: string; params?: unknown });
    const table = kind === 'action' ? vocabulary.actions : vocabulary.guards;
    found.push({ kind, type, params: parse(table[type]?.params, params), at });
  };
  const actions = (value: unknown, at: YamlPath) =>
    Array.isArray(value) ? value.forEach((a, i) => ref('action', a, [...at, i])) : value !== undefined && ref('action', value, at);
  const transitions = (value: unknown, at: YamlPath) => {
    const one = (t: unknown, here: YamlPath) => {
      if (typeof t === 'string') return;
      const object = t as { guard?: unknown; actions?: unknown };
      if (object.guard !== undefined) ref('guard', object.guard, [...here, 'guard']);
      actions(object.actions, [...here, 'actions']);
    };
    eachTransition(value, at, one);
  };
  for (const state of statesOf(sop)) {
    actions(state.node.entry, [...state.at, 'entry']);
    actions(state.node.exit, [...state.at, 'exit']);
    transitions(state.node.always, [...state.at, 'always']);
    for (const [event, t] of Object.entries(state.node.on ?? {})) transitions(t, [...state.at, 'on', event]);
    for (const outcome of invokeOutcomes(state)) transitions(outcome.value, outcome.at);
  }
  return found;
}

/** The slots a SOP's actions fill (`keep`, `keepFeedback`, …): names its steps may use besides the views. */
export function keptSlots(sop: SopFile, vocabulary: Vocabulary): Set<string> {
  const slots = new Set<string>();
  for (const r of referencesOf(sop, vocabulary)) {
    const param = r.kind === 'action' ? vocabulary.actions[r.type]?.names?.keepsSlot : undefined;
    const slot = param ? r.params?.[param] : undefined;
    if (typeof slot === 'string') slots.add(slot);
  }
  return slots;
}
