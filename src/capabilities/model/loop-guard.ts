/**
 * The loop guard: the same valid reply to the same call twice in a row is a loop, not progress — the
 * step stops and says where. Verdicts are exempt: "approved, no issues" is rightly the same every time
 * (a review that keeps coming back to the same issues is the SOP's `repeats` guard's to catch), and so
 * are "no criterion is manual" and a manual check's verdict on a file read again (bounded by the SOP). A
 * call the guard applies to states its rule in the prompt (LOOP_RULE): no check applies a rule unsaid.
 */
import { callIdentity } from '../../engine/effect-identity.ts';
import type { AskRequest } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import type { ExchangeRecord } from './exchange-record.ts';
import { describeCall } from './provider.ts';

/** The guard's rule, as the prompt of a call it applies to states it. */
export const LOOP_RULE =
  'This step was asked before in this run, and answered: a reply identical to that answer (shown here, where the step revises it) is refused as a loop, not progress.';

/** The outputs that are verdicts, which may rightly repeat. */
const VERDICTS = new Set(['Review', 'ManualChecks', 'ManualVerdicts']);

export class LoopGuard {
  /** Valid replies by call and occurrence. */
  private readonly validReplies = new Map<string, string>();

  /** Recorded valid replies (a resumed run) count as given. */
  constructor(records: readonly ExchangeRecord[] = []) {
    for (const r of records) if (r.ok) this.validReplies.set(callIdentity(r, r.occurrence), r.reply);
  }

  /** Whether a reply to this call can be refused as a loop: there is a valid reply to the call before it, and it is no review. */
  applies(request: AskRequest): boolean {
    if (request.output.kind === 'json' && VERDICTS.has(request.output.name)) return false;
    return request.occurrence > 0 && this.validReplies.has(callIdentity(request.call, request.occurrence - 1));
  }

  isLoop(request: AskRequest, reply: string): boolean {
    if (!this.applies(request)) return false;
    return this.validReplies.get(callIdentity(request.call, request.occurrence - 1))!.trim() === reply.trim();
  }

  /** Keeps a valid reply, and throws LOOP_DETECTED when it repeats the one before. */
  check(request: AskRequest, reply: string): void {
    const loop = this.isLoop(request, reply);
    this.validReplies.set(callIdentity(request.call, request.occurrence), reply);
    if (!loop) return;
    throw new SopworksError(
      'LOOP_DETECTED',
      `The model gave the same reply to ${describeCall(request.call)} twice in a row (calls ${request.occurrence} and ${request.occurrence + 1}): a loop, not progress.`,
      {
        hint: 'Look at the two exchanges in .sopworks/exchanges.jsonl; a clearer template or a stronger model usually breaks it. `sopworks resume <project folder>` asks the step again; add --hint "…" to tell the model what to do differently.',
      },
    );
  }
}
