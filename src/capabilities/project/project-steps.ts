/**
 * The steps that make a generated project really run, each in its own file: its dependencies
 * installed, its drafts checked before review, its program run on a smoke input — and the guard that
 * tells whether such a step produced something.
 */
import { z } from 'zod';
import type { RoleContext } from '../../engine/sop/role-context.ts';
import type { RoleServices } from '../../engine/sop/services.ts';
import type { VocabularyEntry } from '../../engine/steps/actions.ts';
import { fastCheckActor, fastCheckStep } from './fast-check-step.ts';
import { installDependenciesActor, installDependenciesStep } from './install-dependencies-step.ts';
import { runProgramActor, runProgramStep } from './run-program-step.ts';

export const projectStepParams = {
  installDependencies: installDependenciesStep,
  fastCheck: fastCheckStep,
  runProgram: runProgramStep,
} satisfies Record<string, VocabularyEntry>;

export function projectStepImplementations(services: RoleServices) {
  return {
    installDependencies: installDependenciesActor(services),
    fastCheck: fastCheckActor(services),
    runProgram: runProgramActor(services),
  };
}

export const projectGuardParams = {
  isSet: {
    description: 'A slot holds a value (not null), or, with `field`, that field of it does (e.g. the lockfile of an install to commit).',
    params: z.object({ slot: z.string().min(1), field: z.string().min(1).nullable().default(null) }).strict(),
  },
} satisfies Record<string, VocabularyEntry>;

type IsSet = z.infer<typeof projectGuardParams.isSet.params>;

export function projectGuardImplementations() {
  return {
    isSet: ({ context }: { context: RoleContext }, params: IsSet) => {
      const value = context.slots[params.slot];
      const picked = params.field === null ? value : (value as Record<string, unknown> | null | undefined)?.[params.field];
      return picked !== null && picked !== undefined;
    },
  };
}
