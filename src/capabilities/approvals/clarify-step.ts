/**
 * `clarify`: before a role writes, the person answers a few questions the model proposes — when the run
 * was started with `--clarify`. The questions are a model call (answered from the exchange log when the
 * step is re-run after a resume), the answers an `Answers` message on the board (found there again), so
 * neither is asked twice.
 */
import { z } from 'zod';
import { Answers, ClarifyingQuestion, ClarifyingQuestions, MAX_CLARIFYING_QUESTIONS } from '../../documents/index.ts';
import { askCounter, countOf } from '../../engine/effect-identity.ts';
import { defineStep } from '../../engine/steps/index.ts';

export const clarify = defineStep({
  description:
    'Ask the person a few questions before writing, when the run was started with `--clarify`: the model proposes at most `max` ' +
    '(roles/<role>/<action>.hbs with the listed views and `max`; none when the request is clear), the person answers them — at the ' +
    'terminal, else from the workbench, the run stopping with awaiting-approval until then — and the answers are posted on the ' +
    'board as `Answers` and returned (keep them for the prompt that follows; an empty answer means no preference). ' +
    'Without `--clarify`, or when the model asks nothing, it returns null.',
  params: z
    .object({
      action: z
        .string()
        .regex(/^[a-z][a-z0-9_]*$/, 'use lower-case letters, digits and underscores')
        .default('clarify'),
      with: z.array(z.string().min(1)).default([]),
      max: z.number().int().min(1).max(MAX_CLARIFYING_QUESTIONS).default(3),
    })
    .strict(),
  output: Answers.nullable(),
  effect: 'model-call',
  names: { views: ['with'] },
  prompt: (params) => ({ action: params.action, output: 'ClarifyingQuestions', outputParam: 'action', with: [...params.with, 'max'] }),
  async run({ params, context, view, signal }, ports) {
    if (!ports.approvals.clarifying()) return null;
    const role = ports.role.profile.id;
    // The n-th call of the action is the n-th round of questions: the answers' identity on the board.
    const round = countOf(context.asks, askCounter(params.action, null));
    const schema = ClarifyingQuestions.extend({ questions: z.array(ClarifyingQuestion).max(params.max) });
    const variables = Object.fromEntries(await Promise.all(params.with.map(async (name) => [name, await view(name)])));
    const reply = (await ports.model.ask({
      call: { role, action: params.action, key: null },
      profile: ports.role.profile,
      variables: { ...variables, documents: await view('documents'), max: params.max, key: null },
      output: { kind: 'json', name: 'ClarifyingQuestions', schema },
      occurrence: round,
      signal,
    })) as ClarifyingQuestions;
    if (reply.questions.length === 0) return null;
    const answers = await ports.approvals.answer({ role, round, questions: reply.questions }, signal);
    return { role, round, answers: reply.questions.map((q, i) => ({ question: q.question, why: q.why, answer: answers[i] ?? '' })) };
  },
});
