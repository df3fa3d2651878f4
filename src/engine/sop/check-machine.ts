/**
 * Checks a SOP as a state machine: every transition target names a state, XState accepts the config,
 * every state can be reached from `initial`, no reachable state is a dead end, and the role can always
 * come to rest — in a final state, or in a state that waits for a board message (like `idle`).
 * A machine without a final state is fine when it rests that way: such a role serves every message it
 * is sent for the whole run. The graph ignores guards, so a path that exists only on paper is still a
 * path: the checks never report a problem that is not there.
 */
import { type AnyStateNode, fromPromise, setup } from 'xstate';
import type { SopFile, StateNodeConfig, Vocabulary } from '../steps/index.ts';
import { type Diagnostic, sopError, sopWarning } from './diagnostic.ts';
import { eachTransition, invokeOutcomes, type StateEntry, statesOf, stepsOf, type YamlPath } from './sop-walk.ts';
import type { Locator } from './yaml-diagnostics.ts';

const key = (path: string[]): string => path.join('.');

export function checkMachine(sop: SopFile, where: Locator, vocabulary: Vocabulary): Diagnostic[] {
  if (!(sop.initial in sop.states)) return []; // reported with the vocabulary (resolveSopReferences)
  const targetProblems = checkTargets(sop, where);
  if (targetProblems.length > 0) return targetProblems;
  const built = buildForChecks(sop, where, vocabulary);
  if ('problem' in built) return [built.problem];
  return checkGraph(sop, built.root, where, vocabulary);
}

/** Resolves a transition target the way XState does: a sibling, a child (".x"), or a state by id ("#sop.a.b"). */
function resolveTarget(sop: SopFile, from: string[], target: string): string[] | null {
  const path = target.startsWith('#')
    ? target === `#${sop.id}`
      ? []
      : target.startsWith(`#${sop.id}.`)
        ? target.slice(sop.id.length + 2).split('.')
        : null
    : target.startsWith('.')
      ? [...from, ...target.slice(1).split('.')]
      : [...from.slice(0, -1), ...target.split('.')];
  if (path === null) return null;
  let states: Record<string, StateNodeConfig> | undefined = sop.states;
  for (const id of path) {
    const node: StateNodeConfig | undefined = states?.[id];
    if (!node) return null;
    states = node.states;
  }
  return path;
}

function checkTargets(sop: SopFile, where: Locator): Diagnostic[] {
  const problems: Diagnostic[] = [];
  for (const state of statesOf(sop)) {
    const check = (value: unknown, at: YamlPath) => {
      const one = (t: unknown, here: YamlPath) => {
        const target = typeof t === 'string' ? t : (t as { target?: string }).target;
        if (target === undefined || resolveTarget(sop, state.path, target) !== null) return;
        const siblings = Object.keys(parentStates(sop, state.path));
        problems.push(
          sopError(
            where(typeof t === 'string' ? here : [...here, 'target']),
            `transition target "${target}" of state "${key(state.path)}" is not a state; use a sibling (${siblings.join(', ')}), ` +
              `a child as ".child", or any state as "#${sop.id}.<path>"`,
          ),
        );
      };
      eachTransition(value, at, one);
    };
    for (const [event, t] of Object.entries(state.node.on ?? {})) check(t, [...state.at, 'on', event]);
    check(state.node.always, [...state.at, 'always']);
    for (const outcome of invokeOutcomes(state)) check(outcome.value, outcome.at);
  }
  return problems;
}

function parentStates(sop: SopFile, path: string[]): Record<string, StateNodeConfig> {
  let states = sop.states;
  for (const id of path.slice(0, -1)) states = states[id]?.states ?? {};
  return states;
}

/** Builds the machine with inert implementations: XState itself checks the config. */
function buildForChecks(sop: SopFile, where: Locator, vocabulary: Vocabulary): { root: AnyStateNode } | { problem: Diagnostic } {
  const inert = <T>(names: string[], value: T) => Object.fromEntries(names.map((name) => [name, value]));
  try {
    const machine = setup({
      actions: inert(Object.keys(vocabulary.actions), () => {}) as never,
      guards: inert(Object.keys(vocabulary.guards), () => true) as never,
      actors: inert(
        Object.keys(vocabulary.steps),
        fromPromise(async () => undefined),
      ) as never,
    }).createMachine({ id: sop.id, initial: sop.initial, states: sop.states as never });
    // XState resolves initial states lazily: resolve them now, while a problem can still be reported.
    const resolveInitials = (node: AnyStateNode): void => {
      if (node.type === 'compound') void node.initial;
      Object.values(node.states).forEach(resolveInitials);
    };
    resolveInitials(machine.root);
    return { root: machine.root };
  } catch (error) {
    const message = (error as Error).message.replace(/\s+/g, ' ').trim();
    // XState names the state node as "#sop.a.b" or 'sop.a.b'.
    const named = new RegExp(`['"#]${sop.id}\\.([\\w.-]+)`).exec(message)?.[1]?.split('.');
    const at: YamlPath = named ? named.flatMap((id) => ['states', id]) : ['states'];
    return { problem: sopError(where.key(at), `XState cannot build this machine: ${message}; fix the state's config (docs/sops.md, "File format")`) };
  }
}

function checkGraph(sop: SopFile, root: AnyStateNode, where: Locator, vocabulary: Vocabulary): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const entries = new Map(statesOf(sop).map((s) => [key(s.path), s]));
  const nodeOf = (entry: StateEntry): AnyStateNode => entry.path.reduce<AnyStateNode>((node, id) => node.states[id]!, root);

  const reachedFromStart = reach([root], true);
  for (const entry of entries.values()) {
    if (!reachedFromStart.has(nodeOf(entry))) {
      problems.push(
        sopWarning(
          where.key(entry.at),
          `state "${key(entry.path)}" cannot be reached from the initial state "${sop.initial}": no transition leads to it; add one, or remove the state`,
        ),
      );
    }
  }

  const reachable = [...entries.values()].filter((e) => reachedFromStart.has(nodeOf(e)));
  const atomic = reachable.filter((e) => !e.node.states || Object.keys(e.node.states).length === 0);
  const deadEnds = new Set<AnyStateNode>();
  for (const entry of atomic) {
    const node = nodeOf(entry);
    if (node.type === 'final') continue;
    if (!hasWayOut(node)) {
      deadEnds.add(node);
      problems.push(
        sopError(
          where.key(entry.at),
          `state "${key(entry.path)}" has no way out: no transition (on, always, or a step's onDone/onError) leaves it, so the role would stop there for good; add a transition, or mark it type: final`,
        ),
      );
    }
  }
  for (const step of stepsOf(sop, vocabulary)) {
    if (!step.hasOnDone && reachedFromStart.has(nodeOf(step.state)) && !deadEnds.has(nodeOf(step.state))) {
      problems.push(
        sopWarning(
          where(step.at),
          `step "${step.src}" in state "${key(step.state.path)}" has no onDone: when it succeeds the role stays in "${key(step.state.path)}"; add onDone with a target`,
        ),
      );
    }
  }

  const resting = new Set(reachable.filter((e) => isResting(nodeOf(e), e.node)).map(nodeOf));
  if (resting.size === 0) {
    problems.push(
      sopError(
        where.key(['initial']),
        `the machine has no final state and no state that waits for a board message, so the role can never rest; ` +
          `add a state with type: final where its work ends, or an idle state with on: <MessageType>`,
      ),
    );
    return problems;
  }
  // A dead end is reported above; from anywhere else, some path must lead to rest.
  const restless = atomic.filter((e) => !deadEnds.has(nodeOf(e)) && ![...reach([nodeOf(e)], false)].some((n) => resting.has(n)));
  if (restless.length > 0) {
    problems.push(
      sopError(
        where.key(restless[0]!.at),
        `from state${restless.length > 1 ? 's' : ''} ${restless.map((e) => `"${key(e.path)}"`).join(', ')} the role can never rest: ` +
          `no path leads to a final state or to a state that waits for a board message, so it would loop until stopped; add a transition to one`,
      ),
    );
  }
  return problems;
}

/** A state the role can sit in without work: final, or waiting for a board message with no step running. */
function isResting(node: AnyStateNode, config: StateNodeConfig): boolean {
  if (node.type === 'final') return true;
  return Object.keys(config.on ?? {}).length > 0 && config.always === undefined && config.invoke === undefined;
}

function hasWayOut(node: AnyStateNode): boolean {
  for (let n: AnyStateNode | undefined = node; n && n.parent; n = n.parent) {
    if (n.transitions.size > 0 || (n.always?.length ?? 0) > 0) return true;
  }
  return false;
}

/**
 * Every state node that can become active from `start`. Entering a node activates its ancestors (whose
 * transitions then apply) and, when it is the target, its initial child (or, if parallel, all children).
 */
function reach(start: AnyStateNode[], enterStart: boolean): Set<AnyStateNode> {
  const active = new Set<AnyStateNode>();
  const entered = new Set<AnyStateNode>();
  const activate = (node: AnyStateNode, enter: boolean) => {
    if (!active.has(node)) {
      active.add(node);
      if (node.parent) activate(node.parent, false);
      const transitions = [...node.transitions.values()].flat().concat(node.always ?? []);
      for (const transition of transitions) for (const target of transition.target ?? []) activate(target, true);
    }
    if (enter && !entered.has(node)) {
      entered.add(node);
      if (node.type === 'compound') for (const target of node.initial.target) activate(target, true);
      if (node.type === 'parallel') for (const child of Object.values(node.states)) activate(child, true);
    }
  };
  for (const node of start) activate(node, enterStart);
  return active;
}
