/** `awaitApproval`: hold an artifact back until a person approves it, when the run gates it. */
import { fromPromise } from 'xstate';
import { z } from 'zod';
import { renderApprovalContent } from './approval-content.ts';
import { SopworksError } from '../../ground/errors.ts';
import { approvalCounter, countOf } from '../../engine/effect-identity.ts';
import type { RoleServices } from '../../engine/sop/services.ts';
import { resolveView } from '../artifacts/views.ts';
import type { VocabularyEntry } from '../../engine/steps/actions.ts';
import { scopeOf, type Params, type StepInput } from '../../engine/steps/step.ts';

export const awaitApproval = {
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
} satisfies VocabularyEntry;

export const awaitApprovalActor = (services: RoleServices) =>
  fromPromise<void, StepInput<Params<typeof awaitApproval>>>(async ({ input: { params, context }, signal }) => {
    if (!services.approvals.gated(params.gate)) return;
    const key = params.key === 'current' ? context.current : null;
    const request = {
      role: services.profile.id,
      gate: params.gate,
      key,
      round: countOf(context.asks, approvalCounter(params.gate, key)),
      content: renderApprovalContent(resolveView(params.show, scopeOf(services, context))),
    };
    const decision = await services.approvals.decide(request, signal);
    if (!decision.approved) {
      throw new SopworksError('APPROVAL_REJECTED', decision.feedback?.trim() || 'rejected without feedback: revise it so a person would approve it');
    }
  });
