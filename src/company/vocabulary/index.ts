/** The whole vocabulary SOP files may use, by kind. */
import { actionImplementations as coreActions, actionParams, type VocabularyEntry } from '../../engine/steps/actions.ts';
import { guardImplementations as coreGuards, guardParams } from '../../engine/steps/guards.ts';
import { actorImplementations as coreActors, actorParams } from './actors.ts';
import { projectGuardImplementations, projectGuardParams, projectStepImplementations, projectStepParams } from '../../capabilities/project/project-steps.ts';
import {
  changeActionImplementations,
  changeActionParams,
  changeActorImplementations,
  changeActorParams,
  changeGuardImplementations,
  changeGuardParams,
} from '../../capabilities/change/change-steps.ts';
import type { RoleServices } from '../../engine/sop/services.ts';

export type { VocabularyEntry } from '../../engine/steps/actions.ts';

// The steps of generated projects' dependencies and checks (./project-steps.ts) and of a change run
// (sopworks change, ./change-steps.ts) sit beside the core ones.
export const actionImplementations = (services: RoleServices) => ({ ...coreActions(services), ...changeActionImplementations(services) });

export const actorImplementations = (services: RoleServices, build: Parameters<typeof coreActors>[1]) => ({
  ...coreActors(services, build),
  ...projectStepImplementations(services),
  ...changeActorImplementations(services),
});
export const guardImplementations = (services: RoleServices) => ({
  ...coreGuards(services),
  ...projectGuardImplementations(),
  ...changeGuardImplementations(services),
});

export const vocabulary: Record<'action' | 'guard' | 'actor', Record<string, VocabularyEntry>> = {
  action: { ...actionParams, ...changeActionParams },
  guard: { ...guardParams, ...projectGuardParams, ...changeGuardParams },
  actor: { ...actorParams, ...projectStepParams, ...changeActorParams },
};
