/** `conclude`: post the run's outcome (done, failed, or criteria-unmet) with its reason. */
import { z } from 'zod';
import { Outcome } from '../board/index.ts';
import { defineStep } from './step.ts';

export const conclude = defineStep({
  description:
    'End the run with an outcome and a reason: done, failed, or criteria-unmet (delivered, but a P0 acceptance criterion is not proven); a `detail` view is appended to the reason.',
  params: z.object({ outcome: Outcome.shape.outcome, reason: z.string().min(1), detail: z.string().min(1).nullable().default(null) }).strict(),
  output: z.string(),
  effect: 'message',
  names: { views: ['detail'] },
  async run({ params, context, view }, ports) {
    const detail = params.detail ? ports.documents.line(await view(params.detail)) : '';
    const message = await ports.publish(
      {
        type: 'Outcome',
        from: ports.role.profile.id,
        causedBy: context.trigger ? [context.trigger] : [],
        payload: { outcome: params.outcome, reason: detail ? `${params.reason}: ${detail}` : params.reason },
      },
      context.published,
    );
    return message.id;
  },
});
