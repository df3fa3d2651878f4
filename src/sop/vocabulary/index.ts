/** The whole vocabulary SOP files may use, by kind. */
import { actionImplementations as baseActionImplementations, actionParams, type VocabularyEntry } from './actions.ts';
import { guardImplementations as baseGuardImplementations, guardParams } from './guards.ts';
import { actorImplementations as baseActorImplementations, actorParams } from './actors.ts';
import { changeActionImplementations, changeActionParams, changeActorImplementations, changeActorParams, changeGuardImplementations, changeGuardParams } from './change-steps.ts';
import type { RoleServices } from '../services.ts';

export type { VocabularyEntry } from './actions.ts';
export { actionImplementations, guardImplementations, actorImplementations };

// The steps of a change run (sopworks change) sit beside the others: ./change-steps.ts.
const actionImplementations = (services: RoleServices) => ({ ...baseActionImplementations(services), ...changeActionImplementations(services) });
const guardImplementations = (services: RoleServices) => ({ ...baseGuardImplementations(services), ...changeGuardImplementations(services) });
const actorImplementations = (services: RoleServices) => ({ ...baseActorImplementations(services), ...changeActorImplementations(services) });

export const vocabulary: Record<'action' | 'guard' | 'actor', Record<string, VocabularyEntry>> = {
  action: { ...actionParams, ...changeActionParams },
  guard: { ...guardParams, ...changeGuardParams },
  actor: { ...actorParams, ...changeActorParams },
};
