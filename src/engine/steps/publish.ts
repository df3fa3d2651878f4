/** `publish`: post a message on the board as the role's next message (its commit follows). */
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import type { Ports } from './ports.ts';
import { defineStep } from './step.ts';

export const publish = defineStep({
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
  output: z.string(),
  effect: 'message',
  names: { views: ['payload', 'fields'] },
  async run({ params, context, view }, ports) {
    const base = params.payload ? await view(params.payload) : {};
    const extra = Object.fromEntries(await Promise.all(Object.entries(params.fields).map(async ([field, name]) => [field, await view(name)])));
    const payload = Array.isArray(base) ? { ...extra } : { ...(base as object), ...extra };
    refuseUnwritableFiles(ports, params.type, payload);
    const message = await ports.publish(
      { type: params.type, from: ports.role.profile.id, to: params.to, causedBy: context.trigger ? [context.trigger] : [], payload },
      context.published,
    );
    return message.id;
  },
});

/** A message whose files the role may not write is refused before it reaches the board. */
function refuseUnwritableFiles(ports: Ports, type: string, payload: unknown): void {
  const definition = ports.board.types[type];
  const parsed = definition?.paths ? definition.schema.safeParse(payload) : null;
  if (!definition?.paths || !parsed?.success) return; // no files, or the board will report the invalid payload
  const role = ports.role.profile.id;
  const refusals = ports.policy.writeRefusals(role, definition.paths(parsed.data, ports.board));
  if (refusals.length > 0) {
    throw new SopworksError('PATH_UNSAFE', `${role} may not publish this ${type}: ${refusals.join('; ')}.`, {
      hint: `Change the SOP or the artifact, or edit ${ports.policy.source} to allow it.`,
    });
  }
}
