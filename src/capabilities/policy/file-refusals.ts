/** The policy's word on the files a step writes: checked on a model's reply and before a message is posted. */
import { messageTypes } from '../../company/message-types.ts';
import type * as S from '../../documents/schemas.ts';
import { SopworksError } from '../../ground/errors.ts';
import { writeRefusals } from './may-write.ts';
import type { RoleServices } from '../../engine/sop/services.ts';

/** Why the role may not write the files of a `code` or `files` reply, or null when it may write them all. */
export function refusalOfFiles(services: RoleServices, value: unknown): string | null {
  const files = (Array.isArray(value) ? value : [value]) as S.CodeFile[];
  const refusals = writeRefusals(
    services.policy,
    services.profile.id,
    files.map((f) => f.path),
  );
  return refusals.length > 0 ? `${refusals.join('; ')}. Reply only with files you may write.` : null;
}

/** A message whose files the role may not write is refused before it reaches the board. */
export function refuseUnwritableFiles(services: RoleServices, type: string, payload: unknown): void {
  const definition = messageTypes[type];
  const parsed = definition?.paths ? definition.schema.safeParse(payload) : null;
  if (!definition?.paths || !parsed?.success) return; // no files, or the board will report the invalid payload
  const refusals = writeRefusals(services.policy, services.profile.id, definition.paths(parsed.data, services.board));
  if (refusals.length > 0) {
    throw new SopworksError('PATH_UNSAFE', `${services.profile.id} may not publish this ${type}: ${refusals.join('; ')}.`, {
      hint: `Change the SOP or the artifact, or edit ${services.policy.source} to allow it.`,
    });
  }
}
