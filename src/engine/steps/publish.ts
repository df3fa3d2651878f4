/** `publish`: post a message on the board as the role's next message (its commit follows). */
import { fromPromise } from 'xstate';
import { z } from 'zod';
import type { RoleServices } from '../sop/services.ts';
import { resolveView } from '../../capabilities/artifacts/views.ts';
import type { VocabularyEntry } from './actions.ts';
import { refuseUnwritableFiles } from '../../capabilities/policy/file-refusals.ts';
import { scopeOf, type Params, type StepInput } from './step.ts';

export const publish = {
  description:
    'Post a message on the board (and commit the files it carries). The payload is a view or slot (`payload`), ' +
    'with extra fields taken from other views or slots (`fields`).',
  params: z
    .object({
      type: z.string().min(1),
      payload: z.string().min(1).nullable().default(null),
      fields: z.record(z.string(), z.string().min(1)).default({}),
      to: z.string().min(1).default('all'),
    })
    .strict(),
} satisfies VocabularyEntry;

export const publishActor = (services: RoleServices) =>
  fromPromise<string, StepInput<Params<typeof publish>>>(async ({ input: { params, context } }) => {
    const scope = scopeOf(services, context);
    const base = params.payload ? resolveView(params.payload, scope) : {};
    const extra = Object.fromEntries(Object.entries(params.fields).map(([field, view]) => [field, resolveView(view, scope)]));
    const payload = Array.isArray(base) ? { ...extra } : { ...(base as object), ...extra };
    refuseUnwritableFiles(services, params.type, payload);
    const message = await services.publish(
      { type: params.type, from: services.profile.id, to: params.to, causedBy: context.trigger ? [context.trigger] : [], payload },
      context.published,
    );
    return message.id;
  });
