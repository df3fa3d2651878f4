/**
 * Effect identity: why a resumed run never does anything twice.
 *
 * XState restores a role's machine from its last persisted snapshot and re-invokes the step that was in
 * flight. That step's effects may already have happened before the crash, so every effect has an identity
 * that does not depend on time or on the process — only on what the role had done before it:
 *
 * - a model call is the n-th call of an action for a key by a role (`callIdentity`); its attempts (repairs)
 *   are numbered too (`attemptIdentity`). A call whose attempts are in the exchange log is answered from it.
 * - a message is the role's n-th message (`earlierMessage`): when it is already on the board, the step gets
 *   that one back instead of posting it again.
 * - an approval is the n-th round of decisions on a gate and key (`approvalCounter`, `sameApproval`): a
 *   decision already on the board is not asked for again.
 *
 * The counts live in the role's machine context (RoleContext.asks and .published, persisted with its
 * snapshot) and advance only when a step completes (sop/build-machine.ts), so a re-invoked step sees the
 * same n as the run that crashed.
 */
import { SopworksError } from '../ground/errors.ts';

/** A model call's place in the run: who asks, for which action, about which key (a file, or none). */
export interface CallSeries {
  role: string;
  action: string;
  key: string | null;
}

const SEP = '\u0000';

/** The counter of an action's calls for a key, in a role's context (RoleContext.asks). */
export const askCounter = (action: string, key: string | null): string => `${action}${SEP}${key ?? ''}`;

/** The counter of decisions asked for a gate and key, kept beside the ask counters. */
export const approvalCounter = (gate: string, key: string | null): string => askCounter(`approval:${gate}`, key);

/** How many times the counted effect completed: the n of the next one (0-based). */
export const countOf = (counters: Readonly<Record<string, number>>, counter: string): number => counters[counter] ?? 0;

/** The counters with one more completion of `counter`. */
export const countedOnce = (counters: Readonly<Record<string, number>>, counter: string): Record<string, number> => ({
  ...counters,
  [counter]: countOf(counters, counter) + 1,
});

/** Every call of an action for a key by a role (a scripted provider's queue of replies). */
export const seriesIdentity = (call: CallSeries): string => `${call.role}${SEP}${call.action}${SEP}${call.key ?? ''}`;

/** One logical call: the `occurrence`-th of its series (0-based). */
export const callIdentity = (call: CallSeries, occurrence: number): string => `${seriesIdentity(call)}${SEP}${occurrence}`;

/** One attempt of a call (a repair of an invalid reply is the next attempt, from 1). */
export const attemptIdentity = (call: CallSeries, occurrence: number, attempt: number): string => `${callIdentity(call, occurrence)}${SEP}${attempt}`;

/**
 * The role's `nth` message (0-based) when it is already on the board, else null (it is to be posted).
 * A message there of another type means the SOP changed under the run: it cannot be resumed.
 */
export function earlierMessage<M extends { from: string; type: string }>(board: readonly M[], draft: { from: string; type: string }, nth: number): M | null {
  const earlier = board.filter((m) => m.from === draft.from)[nth];
  if (!earlier) return null;
  if (earlier.type !== draft.type) {
    throw new SopworksError(
      'NOT_RESUMABLE',
      `${draft.from}'s message #${nth + 1} on the board is a ${earlier.type}, but the resumed step publishes a ${draft.type}.`,
      {
        hint: 'The SOP changed in a way that reorders what this role publishes; start a new run.',
      },
    );
  }
  return earlier;
}

/** An approval request or decision: the role's round of decisions on a gate and key. */
export interface ApprovalIdentity {
  role: string;
  gate: string;
  key: string | null;
  round: number;
}

export const sameApproval = (a: ApprovalIdentity, b: ApprovalIdentity): boolean =>
  a.role === b.role && a.gate === b.gate && a.key === b.key && a.round === b.round;
