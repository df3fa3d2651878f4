/**
 * The vocabulary a company's SOPs may name — steps, actions, guards, views and message types — handed to
 * the engine as a value: the machine builder, the SOP checks, the walk and the reference all take it.
 * It is assembled in one place, src/company/vocabulary.ts.
 */
import type { MessageType } from '../board/index.ts';
import type { Action, Entry, Guard, Step } from './step.ts';
import type { View } from './views.ts';

export interface Vocabulary {
  // biome-ignore lint/suspicious/noExplicitAny: each step has its own parameter and output types.
  steps: Readonly<Record<string, Step<any, any>>>;
  // biome-ignore lint/suspicious/noExplicitAny: each action has its own parameter type.
  actions: Readonly<Record<string, Action<any>>>;
  // biome-ignore lint/suspicious/noExplicitAny: each guard has its own parameter type.
  guards: Readonly<Record<string, Guard<any>>>;
  views: Readonly<Record<string, View>>;
  messages: Readonly<Record<string, MessageType<unknown>>>;
}

/** The kinds a SOP names, as its diagnostics call them. */
export type Kind = 'action' | 'guard' | 'actor';

/** The entries of one kind. */
export function entriesOf(vocabulary: Vocabulary, kind: Kind): Readonly<Record<string, Entry>> {
  return kind === 'action' ? vocabulary.actions : kind === 'guard' ? vocabulary.guards : vocabulary.steps;
}
