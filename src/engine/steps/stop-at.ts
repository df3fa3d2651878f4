/** `stopAt`: a point a run may be asked to stop at (`--until <point>`); any other run goes straight on. */
import { fromPromise } from 'xstate';
import { z } from 'zod';
import type { RoleServices } from '../sop/services.ts';
import type { VocabularyEntry } from './actions.ts';
import type { Params, StepInput } from './step.ts';

export const stopAt = {
  description:
    'A point a run may stop at (`sopworks run --until <point>`): that run ends `paused` here once nothing else is at work, ' +
    'and `sopworks resume` goes on from here to the end; any other run goes straight on. Put it where what came before ' +
    'is on the board and what comes after has not started (e.g. in the role that takes the artifact, before it acts).',
  params: z
    .object({ point: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a point is a lower-case word, e.g. prd') })
    .strict(),
} satisfies VocabularyEntry;

export const stopAtActor = (services: RoleServices) =>
  fromPromise<void, StepInput<Params<typeof stopAt>>>(({ input: { params }, signal }) => services.stopPoints.pass(services.profile.id, params.point, signal));
