/**
 * The shapes of the vocabulary a SOP names: a step (an actor the SOP invokes, with effects), an action
 * (an update of the role's context) and a guard (a question about it). Each has a description and a zod
 * schema of its parameters — validated from the SOP file, reused for `file:line:col` diagnostics and the
 * reference docs — beside its implementation; a step also has the schema of its output, which is
 * validated before the SOP sees it. The vocabulary is assembled in one place (src/company/vocabulary.ts)
 * and handed to the engine (./vocabulary.ts).
 */
import type { z } from 'zod';
import type { BoardReader } from '../board/index.ts';
import type { Ports } from './ports.ts';
import type { RoleContext } from './role-context.ts';
import type { RoleSettings } from './sop-file.ts';

/** What a step is invoked with: its parameters (parsed from the SOP file), the role's context, and how to read a view. */
export interface StepInput<P> {
  params: P;
  context: RoleContext;
  /** Aborted when the role stops; a step in flight then stops too. */
  signal: AbortSignal;
  /** A view or a slot the role keeps, by name (./views.ts); a view may take a moment (a parse), so it is awaited. */
  view(name: string): Promise<unknown>;
  /**
   * The rules by which the SOP's next step judges what this step gives (a check that can send it back),
   * in the words its prompt must state: the steps' `rules`, found by the machine builder in the state(s)
   * this step's onDone leads to. Empty when nothing judges it.
   */
  judgedBy(): Promise<string[]>;
  /**
   * How many more times the SOP may send this step's output back to be revised (the `below` bound of the
   * state its onDone leads to, src/engine/sop/revision-bound.ts): 0 when this is the last round, so a
   * review's issues go on as open issues; null (or absent) when no bound follows the step.
   */
  revisionsLeft?: number | null;
}

/** What a judging step's `rules` read: its parameters, and the role's views (the current file, say). */
export interface RulesInput<P> {
  params: P;
  view(name: string): Promise<unknown>;
}

/**
 * What a completed step counts, so a re-invoked step after a restore finds its earlier effect
 * (src/engine/effect-identity.ts): a model call (its `action` and `key` parameters), a message, an
 * approval round (its `gate` and `key`), or the per-file machines' calls and messages.
 */
export type StepEffect = 'model-call' | 'message' | 'approval' | 'per-file';

/** Which parameters name things `sopworks sop validate` checks. */
export interface StepNames {
  /** Parameters that name views or kept slots: one name, a list of names, or a map of them. */
  views?: readonly string[];
  /** A parameter that may be `current`: the step then needs a current file. */
  currentKey?: string;
  /** A parameter naming a per-file SOP the step runs (a file next to the SOP). */
  subSop?: string;
}

/** The prompt template a step renders (roles/<role>/<action>.hbs), checked by `sop validate`. */
export interface StepPrompt {
  action: string;
  /** `code`, `files`, `edits`, or a structured output's name. */
  output: string;
  /** The parameter that decides the output, where a problem with the output's shared template is reported. */
  outputParam: string;
  /** The variables the template is given besides `role` and `key`. */
  with: readonly string[];
}

export interface Step<P = unknown, O = unknown> {
  description: string;
  params: z.ZodType<P>;
  output: z.ZodType<O>;
  effect?: StepEffect;
  names?: StepNames;
  prompt?: (params: P) => StepPrompt;
  /**
   * A step that can refuse what the step before it gave (a check): every rule it applies, in the words
   * the prompt of that step states them — from the same source the check reads, so they cannot drift.
   */
  rules?: (input: RulesInput<P>, ports: Ports) => readonly string[] | Promise<readonly string[]>;
  run(input: StepInput<P>, ports: Ports): Promise<O>;
}

/** Which parameters of an action or guard name things `sopworks sop validate` checks. */
export interface ReferenceNames {
  /** A parameter naming a slot it reads (warned about when the SOP never keeps it). */
  readsSlot?: string;
  /** A parameter naming a slot it fills. */
  keepsSlot?: string;
  /** A parameter naming a message type. */
  messageType?: string;
  /** The action sets the current file. */
  setsCurrent?: boolean;
  /** A parameter naming a setting of the role in company.yaml it reads (a name nothing reads is an error). */
  readsSetting?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: an action takes whatever event its transition carries; each reads only what it needs.
export type ActionArgs = { context: RoleContext; event: any };

export interface Action<P = unknown> {
  description: string;
  params: z.ZodType<P>;
  names?: ReferenceNames;
  /** The fields of the role's context the action changes, and their new values. */
  update(args: ActionArgs, params: P, board: BoardReader): Partial<RoleContext>;
}

export interface Guard<P = unknown> {
  description: string;
  params: z.ZodType<P>;
  names?: ReferenceNames;
  test(args: GuardArgs, params: P, board: BoardReader): boolean;
}

/** What a guard is asked about: the role's context, and its settings in company.yaml ({} when it has none). */
export type GuardArgs = { context: RoleContext; settings: Readonly<RoleSettings> };

/** A vocabulary entry of any kind: what the checks and the reference read. */
export interface Entry {
  description: string;
  params: z.ZodType;
  names?: StepNames & ReferenceNames;
}

/** Declares a step, its parameter and output types inferred from its schemas. */
export const defineStep = <S extends z.ZodType, O extends z.ZodType>(step: {
  description: string;
  params: S;
  output: O;
  effect?: StepEffect;
  names?: StepNames;
  prompt?: (params: z.output<S>) => StepPrompt;
  rules?: (input: RulesInput<z.output<S>>, ports: Ports) => readonly string[] | Promise<readonly string[]>;
  run(input: StepInput<z.output<S>>, ports: Ports): Promise<z.output<O>>;
}): Step<z.output<S>, z.output<O>> => step as Step<z.output<S>, z.output<O>>;

export const defineAction = <S extends z.ZodType>(action: {
  description: string;
  params: S;
  names?: ReferenceNames;
  update(args: ActionArgs, params: z.output<S>, board: BoardReader): Partial<RoleContext>;
}): Action<z.output<S>> => action as Action<z.output<S>>;

export const defineGuard = <S extends z.ZodType>(guard: {
  description: string;
  params: S;
  names?: ReferenceNames;
  test(args: GuardArgs, params: z.output<S>, board: BoardReader): boolean;
}): Guard<z.output<S>> => guard as Guard<z.output<S>>;
