/** `awaitApproval`: hold an artifact back until a person approves it, when the run gates it. */
import { z } from 'zod';
import { approvalCounter, countOf } from '../../engine/effect-identity.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';

export const awaitApproval = defineStep({
  description:
    'Hold an artifact back until a person approves it, when the run gates it (`--approve prd,design,code,tests`); ' +
    'without the gate, go straight on. `show` is the view or slot shown to the person. A rejection fails the step ' +
    'with the feedback (keep it with `keepFeedback`).',
  params: z
    .object({
      gate: z.enum(['prd', 'design', 'code', 'tests']),
      show: z.string().min(1),
      key: z.enum(['current']).nullable().default(null),
    })
    .strict(),
  output: z.void(),
  effect: 'approval',
  async run({ params, context, view, signal }, ports) {
    if (!ports.approvals.gated(params.gate)) return;
    const key = params.key === 'current' ? context.current : null;
    const request = {
      role: ports.role.profile.id,
      gate: params.gate,
      key,
      round: countOf(context.asks, approvalCounter(params.gate, key)),
      content: ports.documents.markdown(await view(params.show)),
    };
    const decision = await ports.approvals.decide(request, signal);
    if (!decision.approved) {
      throw new SopworksError('APPROVAL_REJECTED', decision.feedback?.trim() || 'rejected without feedback: revise it so a person would approve it');
    }
  },
});
