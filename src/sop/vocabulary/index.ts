/** The whole vocabulary SOP files may use, by kind. */
import { actionImplementations, actionParams, type VocabularyEntry } from './actions.ts';
import { guardImplementations, guardParams } from './guards.ts';
import { actorImplementations, actorParams } from './actors.ts';

export type { VocabularyEntry } from './actions.ts';
export { actionImplementations, guardImplementations, actorImplementations };

export const vocabulary: Record<'action' | 'guard' | 'actor', Record<string, VocabularyEntry>> = {
  action: actionParams,
  guard: guardParams,
  actor: actorParams,
};
