/**
 * What every SOP step (an actor a SOP invokes) is made of: a description and a zod schema for its
 * parameters (validated from the SOP file, reused for `file:line:col` diagnostics and the reference
 * docs), and its implementation, given the role's services.
 */
import type { AnyStateMachine } from 'xstate';
import type { z } from 'zod';
import type { RoleContext } from '../sop/role-context.ts';
import type { RoleServices } from '../sop/services.ts';
import type { SopFile } from '../sop/sop-file.ts';
import type { VocabularyEntry } from './actions.ts';

/** What a step is invoked with: its parameters and the role's context at invocation. */
export interface StepInput<P> {
  params: P;
  context: RoleContext;
}

/** Builds a SOP's machine (build-machine.ts), handed to steps that run machines of their own (eachFile). */
export type BuildMachine = (sop: SopFile, services: RoleServices, initial?: Partial<RoleContext>) => AnyStateMachine;

/** A step's vocabulary entry; `Params<typeof step>` is what its implementation receives. */
export type Params<E extends VocabularyEntry> = z.infer<E['params']>;

/** The view-resolution scope of a step: the role's context and the board. */
export const scopeOf = (services: RoleServices, context: RoleContext) => ({ context, board: services.board });
