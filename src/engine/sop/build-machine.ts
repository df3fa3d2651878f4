/**
 * SOP definition → XState machine. The definition's names are checked against the vocabulary it is
 * handed and their parameters validated (defaults filled in) before XState sees them; errors name
 * file:line:col. Invoked steps get their parameters plus the role's context as input, and the role's
 * ports; their output is validated against the step's output schema before the SOP sees it.
 */
import { type AnyStateMachine, and, assign, fromPromise, not, setup } from 'xstate';
import { SopworksError } from '../../ground/errors.ts';
import { locate, type YamlSource } from '../../ground/files/index.ts';
import { approvalCounter, askCounter, countedOnce } from '../effect-identity.ts';
import {
  EachFileOutput,
  entriesOf,
  initialContext,
  type Kind,
  type Ports,
  type RoleContext,
  resolveView,
  type SopFile,
  type StateNodeConfig,
  type StepEffect,
  type Vocabulary,
} from '../steps/index.ts';
import { resolveCallKey } from './call-key.ts';
import { type Judge, judgesOf, rulesOfJudges } from './judges.ts';
import { type RevisionBound, revisionBoundOf, revisionsLeft } from './revision-bound.ts';

const COUNT_ASK = 'sopworks.countAsk';
const COUNT_PUBLISH = 'sopworks.countPublish';
const COUNT_APPROVAL = 'sopworks.countApproval';
const MERGE_FILES = 'sopworks.mergeFiles';

/** Built in, not part of the vocabulary a SOP names: see RoleContext.asks. */
const countingActions = {
  [COUNT_ASK]: assign(({ context }: { context: RoleContext }, params: { action: string; key?: string | null }) => {
    return { asks: countedOnce(context.asks, askCounter(params.action, resolveCallKey(params.key ?? null, context))) };
  }),
  [COUNT_PUBLISH]: assign(({ context }: { context: RoleContext }) => ({ published: context.published + 1 })),
  [COUNT_APPROVAL]: assign(({ context }: { context: RoleContext }, params: { gate: string; key?: string | null }) => {
    return { asks: countedOnce(context.asks, approvalCounter(params.gate, params.key === 'current' ? context.current : null)) };
  }),
  /** `eachFile` ran per-file machines: their calls and messages become this role's, like its own steps'. */
  [MERGE_FILES]: assign(({ context, event }: { context: RoleContext; event: { type: string; output?: unknown } }) => {
    const output = EachFileOutput.parse(event.output);
    const slots = output.collected ? { ...context.slots, [output.collected.slot]: output.collected.value } : context.slots;
    return { asks: { ...context.asks, ...output.asks }, published: context.published + output.published, done: output.done, queue: [], current: null, slots };
  }),
};
type Path = (string | number)[];

/** A problem found in a SOP: where it is (file:line:col, or the SOP id without a source) and what is wrong. */
export interface SopProblem {
  where: string;
  message: string;
}

/** Checks every vocabulary reference; returns a copy of the states with parsed parameters. */
export function resolveSop(sop: SopFile, source: YamlSource | null, vocabulary: Vocabulary): SopFile {
  const resolved = resolveSopReferences(sop, source, vocabulary);
  if (resolved.problems.length > 0) {
    throw new SopworksError('SOP_INVALID', resolved.problems.map((p) => `${p.where}: ${p.message}`).join('\n'));
  }
  return resolved.sop;
}

/**
 * Checks every vocabulary reference and collects every problem; returns a copy of the states with the
 * parameters that parsed (defaults filled in) — references with problems are left as written.
 */
export function resolveSopReferences(sop: SopFile, source: YamlSource | null, vocabulary: Vocabulary): { sop: SopFile; problems: SopProblem[] } {
  const problems: SopProblem[] = [];
  const where = (path: Path) => (source ? locate(source, path) : sop.id);

  const parseParams = (kind: Kind, name: string, params: unknown, at: Path): { ok: boolean; params: unknown } => {
    const parsed = entriesOf(vocabulary, kind)[name]!.params.safeParse(params ?? {});
    if (parsed.success) return { ok: true, params: parsed.data };
    for (const issue of parsed.error.issues) {
      const key = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
      problems.push({ where: where([...at, ...(key as Path)]), message: `${kind} "${name}": ${key.join('.') || 'parameters'}: ${issue.message}` });
    }
    return { ok: false, params };
  };
  const unknown = (kind: Kind, name: string, at: Path) =>
    problems.push({ where: where(at), message: `unknown ${kind} "${name}"; known: ${Object.keys(entriesOf(vocabulary, kind)).join(', ')}` });

  const ref = (kind: Kind, value: unknown, path: Path): unknown => {
    const { type, params } = typeof value === 'string' ? { type: value, params: {} } : (value as { type: string; params?: unknown });
    if (!entriesOf(vocabulary, kind)[type]) {
      unknown(kind, type, typeof value === 'string' ? path : [...path, 'type']);
      return value;
    }
    const parsed = parseParams(kind, type, params, [...path, 'params']);
    return parsed.ok ? { type, params: parsed.params } : value;
  };
  const actions = (value: unknown, path: Path) => (Array.isArray(value) ? value.map((a, i) => ref('action', a, [...path, i])) : ref('action', value, path));
  const transition = (value: unknown, path: Path): unknown => {
    if (typeof value === 'string') return value;
    const t = { ...(value as Record<string, unknown>) };
    if (t.guard !== undefined) t.guard = ref('guard', t.guard, [...path, 'guard']);
    if (t.actions !== undefined) t.actions = actions(t.actions, [...path, 'actions']);
    return t;
  };
  const transitions = (value: unknown, path: Path) => (Array.isArray(value) ? value.map((t, i) => transition(t, [...path, i])) : transition(value, path));
  const node = (state: StateNodeConfig, path: Path): StateNodeConfig => {
    const out: Record<string, unknown> = { ...state };
    if (state.entry) out.entry = actions(state.entry, [...path, 'entry']);
    if (state.exit) out.exit = actions(state.exit, [...path, 'exit']);
    if (state.always) out.always = transitions(state.always, [...path, 'always']);
    if (state.on) out.on = Object.fromEntries(Object.entries(state.on).map(([event, t]) => [event, transitions(t, [...path, 'on', event])]));
    if (state.invoke) {
      const one = (inv: Record<string, unknown>, at: Path) => {
        const src = inv.src as string;
        const copy: Record<string, unknown> = { ...inv };
        if (!vocabulary.steps[src]) unknown('actor', src, [...at, 'src']);
        else copy.input = parseParams('actor', src, inv.input, [...at, 'input']).params;
        if (inv.onDone) copy.onDone = transitions(inv.onDone, [...at, 'onDone']);
        if (inv.onError) copy.onError = transitions(inv.onError, [...at, 'onError']);
        return copy;
      };
      out.invoke = Array.isArray(state.invoke)
        ? state.invoke.map((inv, i) => one(inv as Record<string, unknown>, [...path, 'invoke', i]))
        : one(state.invoke as Record<string, unknown>, [...path, 'invoke']);
    }
    if (state.states) out.states = Object.fromEntries(Object.entries(state.states).map(([id, child]) => [id, node(child, [...path, 'states', id])]));
    return out as StateNodeConfig;
  };
  const states = Object.fromEntries(Object.entries(sop.states).map(([id, state]) => [id, node(state, ['states', id])]));
  if (!(sop.initial in sop.states)) {
    problems.push({ where: where(['initial']), message: `initial state "${sop.initial}" is not one of: ${Object.keys(sop.states).join(', ')}` });
  }
  return { sop: { ...sop, states }, problems };
}

/** How a completed step is counted, so a re-invoked step after a restore can find its earlier effect. */
const COUNTED: Record<StepEffect, string> = {
  'model-call': COUNT_ASK,
  message: COUNT_PUBLISH,
  'per-file': MERGE_FILES,
  approval: COUNT_APPROVAL,
};

/** Puts `action` first on every done-transition of a step (a targetless one if the SOP has none). */
function countOnDone(onDone: unknown, action: unknown): unknown {
  const transitions = onDone === undefined ? [{}] : Array.isArray(onDone) ? onDone : [onDone];
  return transitions.map((t) => {
    const object: Record<string, unknown> = typeof t === 'string' ? { target: t } : { ...(t as Record<string, unknown>) };
    const actions = object.actions === undefined ? [] : Array.isArray(object.actions) ? object.actions : [object.actions];
    return { ...object, actions: [action, ...actions] };
  });
}

/** A built-in guard on every onError transition: a conflict of sopworks' own checks is no error for the SOP to handle. */
const NOT_A_CONFLICT = 'sopworks.notAConflictOfChecks';

/**
 * Every onError transition, guarded so that a conflict of the checks themselves (CHECKS_CONFLICT: no
 * reply can pass) is never sent back to the model as a correction: unhandled, it fails the step, and
 * the run says it was sopworks' fault.
 */
function exceptConflicts(onError: unknown): unknown {
  if (onError === undefined) return undefined;
  const transitions = Array.isArray(onError) ? onError : [onError];
  return transitions.map((t) => {
    const object: Record<string, unknown> = typeof t === 'string' ? { target: t } : { ...(t as Record<string, unknown>) };
    return { ...object, guard: object.guard === undefined ? NOT_A_CONFLICT : and([object.guard as never, NOT_A_CONFLICT]) };
  });
}

/**
 * Turns each invoke's static parameters into an input function that also hands over the context and
 * the steps that judge its output (judges.ts) and the bound on revising it (revision-bound.ts), and counts completed steps that have effects.
 */
function withStepInputs(state: StateNodeConfig, vocabulary: Vocabulary, siblings: Readonly<Record<string, StateNodeConfig>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...state };
  const wire = (inv: Record<string, unknown>) => {
    const params = (inv.input ?? {}) as Record<string, unknown>;
    const effect = vocabulary.steps[inv.src as string]?.effect;
    const counter = effect ? COUNTED[effect] : undefined;
    const judges = judgesOf(inv.onDone, siblings, vocabulary);
    const bound = revisionBoundOf(inv.onDone, siblings);
    const onDone = counter ? countOnDone(inv.onDone, { type: counter, params }) : inv.onDone;
    // A rejected artifact is a decision too: the next request for it is the next round.
    const onError = exceptConflicts(effect === 'approval' && inv.onError ? countOnDone(inv.onError, { type: COUNT_APPROVAL, params }) : inv.onError);
    return { ...inv, onDone, onError, input: ({ context }: { context: RoleContext }) => ({ params, context, judges, bound }) };
  };
  if (state.invoke) {
    out.invoke = Array.isArray(state.invoke) ? state.invoke.map((i) => wire(i as Record<string, unknown>)) : wire(state.invoke as Record<string, unknown>);
  }
  if (state.states) {
    const children = state.states;
    out.states = Object.fromEntries(Object.entries(children).map(([id, child]) => [id, withStepInputs(child, vocabulary, children)]));
  }
  return out;
}

/** Options of a role's machine. */
export interface MachineOptions {
  /**
   * Once the run winds down (the first Ctrl-C), a step the machine enters is not started: XState starts
   * an invoked step before the role's runtime sees the new state and stops, so without this the next
   * step would start — and be announced — after Ctrl-C. Not for per-file machines: files under way finish.
   */
  startsNothingOnceWoundDown?: boolean;
}

/** A step not started because the run is winding down: settles only when the role stops it (its state is kept, and resumed). */
function notStarted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const stop = () => reject(new SopworksError('INTERRUPTED', 'not started: the run is stopping after the steps in flight'));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

/** Each step as an XState promise actor: run with the role's ports, its output checked against the step's schema. */
function actorsOf(vocabulary: Vocabulary, ports: Ports, options: MachineOptions) {
  return Object.fromEntries(
    Object.entries(vocabulary.steps).map(([name, step]) => [
      name,
      fromPromise<unknown, { params: unknown; context: RoleContext; judges: Judge[]; bound: RevisionBound | null }>(
        async ({ input: { params, context, judges, bound }, signal }) => {
          if (options.startsNothingOnceWoundDown && ports.run.windDown.aborted) return notStarted(signal);
          const view = (viewName: string) => resolveView(viewName, { context, board: ports.board }, vocabulary.views);
          const judgedBy = () => rulesOfJudges(judges, vocabulary, ports, view);
          const output = await step.run({ params, context, signal, view, judgedBy, revisionsLeft: revisionsLeft(bound, context.counters) }, ports);
          const checked = step.output.safeParse(output);
          if (checked.success) return checked.data;
          const problem = checked.error.issues[0];
          throw new SopworksError(
            'STEP_OUTPUT_INVALID',
            `step ${name} gave an output its schema refuses: ${problem?.path.join('.') || '(root)'}: ${problem?.message}`,
            {
              hint: 'This is a fault of sopworks, not of the SOP: report it with the run folder.',
            },
          );
        },
      ),
    ]),
  );
}

/** Every action and guard as XState wants them: an action as an `assign` of the fields it changes. */
function referencesOfVocabulary(vocabulary: Vocabulary, ports: Ports) {
  const actions = Object.fromEntries(
    Object.entries(vocabulary.actions).map(([name, action]) => [
      name,
      assign(({ context, event }: { context: RoleContext; event: unknown }, params: unknown) => action.update({ context, event }, params, ports.board)),
    ]),
  );
  const guards = Object.fromEntries(
    Object.entries(vocabulary.guards).map(([name, guard]) => [
      name,
      ({ context }: { context: RoleContext }, params: unknown) => guard.test({ context, settings: ports.role.settings ?? {} }, params, ports.board),
    ]),
  );
  const conflict = ({ event }: { event: object }) => {
    const error = (event as { error?: unknown }).error;
    return SopworksError.isInstance(error) && error.code === 'CHECKS_CONFLICT';
  };
  return { actions, guards: { ...guards, [NOT_A_CONFLICT]: not(conflict) } };
}

/** `initial`: context the machine starts with besides the defaults (a per-file machine's file, say). */
export function buildMachine(
  sop: SopFile,
  ports: Ports,
  vocabulary: Vocabulary,
  initial: Partial<RoleContext> = {},
  options: MachineOptions = {},
): AnyStateMachine {
  const states = Object.fromEntries(Object.entries(sop.states).map(([id, state]) => [id, withStepInputs(state, vocabulary, sop.states)]));
  const { actions, guards } = referencesOfVocabulary(vocabulary, ports);
  return setup({
    types: {} as { context: RoleContext },
    actions: { ...actions, ...countingActions } as never,
    guards: guards as never,
    actors: actorsOf(vocabulary, ports, options) as never,
  }).createMachine({
    id: sop.id,
    initial: sop.initial,
    context: { ...initialContext(), ...initial },
    // The states were checked against the vocabulary by resolveSop; XState's static types cannot see that.
    states: states as never,
  }) as unknown as AnyStateMachine;
}
