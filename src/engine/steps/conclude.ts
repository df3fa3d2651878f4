/** `conclude`: post the run's outcome (done or failed) with its reason. */
import { fromPromise } from 'xstate';
import { z } from 'zod';
import { renderOutcomeDetail } from '../../capabilities/artifacts/render/outcome-detail.ts';
import type { RoleServices } from '../sop/services.ts';
import { resolveView } from '../../capabilities/artifacts/views.ts';
import type { VocabularyEntry } from './actions.ts';
import { scopeOf, type Params, type StepInput } from './step.ts';

export const conclude = {
  description: 'End the run with an outcome (done or failed) and a reason; a `detail` view is appended to the reason.',
  params: z.object({ outcome: z.enum(['done', 'failed']), reason: z.string().min(1), detail: z.string().min(1).nullable().default(null) }).strict(),
} satisfies VocabularyEntry;

export const concludeActor = (services: RoleServices) =>
  fromPromise<string, StepInput<Params<typeof conclude>>>(async ({ input: { params, context } }) => {
    const detail = params.detail ? renderOutcomeDetail(resolveView(params.detail, scopeOf(services, context))) : '';
    const message = await services.publish(
      {
        type: 'Outcome',
        from: services.profile.id,
        causedBy: context.trigger ? [context.trigger] : [],
        payload: { outcome: params.outcome, reason: detail ? `${params.reason}: ${detail}` : params.reason },
      },
      context.published,
    );
    return message.id;
  });
