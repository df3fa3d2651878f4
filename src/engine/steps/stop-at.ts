/** `stopAt`: a point a run may be asked to stop at (`--until <point>`); any other run goes straight on. */
import { z } from 'zod';
import { defineStep } from './step.ts';

export const stopAt = defineStep({
  description:
    'A point a run may stop at (`sopworks run --until <point>`): that run ends `paused` here once nothing else is at work, ' +
    'and `sopworks resume` goes on from here to the end; any other run goes straight on. Put it where what came before ' +
    'is on the board and what comes after has not started (e.g. in the role that takes the artifact, before it acts).',
  params: z.object({ point: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a point is a lower-case word, e.g. prd') }).strict(),
  output: z.void(),
  run: ({ params, signal }, ports) => ports.run.stopAt(params.point, signal),
});
