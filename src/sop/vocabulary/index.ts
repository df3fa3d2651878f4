/** The whole vocabulary SOP files may use, by kind. */
import { actionImplementations, actionParams, type VocabularyEntry } from './actions.ts';
import { guardImplementations as coreGuards, guardParams } from './guards.ts';
import { actorImplementations as coreActors, actorParams } from './actors.ts';
import { projectGuardImplementations, projectGuardParams, projectStepImplementations, projectStepParams } from './project-steps.ts';
import type { RoleServices } from '../services.ts';

export type { VocabularyEntry } from './actions.ts';
export { actionImplementations };

export const actorImplementations = (services: RoleServices, build: Parameters<typeof coreActors>[1]) => ({
  ...coreActors(services, build),
  ...projectStepImplementations(services),
});
export const guardImplementations = (services: RoleServices) => ({ ...coreGuards(services), ...projectGuardImplementations() });

export const vocabulary: Record<'action' | 'guard' | 'actor', Record<string, VocabularyEntry>> = {
  action: actionParams,
  guard: { ...guardParams, ...projectGuardParams },
  actor: { ...actorParams, ...projectStepParams },
};
