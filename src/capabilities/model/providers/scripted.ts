/**
 * The scripted provider replays a scenario: replies are matched by {role, action, key} and consumed in
 * order. It is a test double and the offline demo — it generates nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { seriesIdentity } from '../../../engine/effect-identity.ts';
import { SopworksError } from '../../../ground/errors.ts';
import { type CallMeta, type Completion, type CompletionRequest, describeCall, type Provider } from '../provider.ts';
import { replyText, type Scenario, type ScriptedReply } from '../scenario.ts';

export class ScriptedProvider implements Provider {
  /** Every series' replies, in order; `used` says how many of each were handed out. */
  private readonly series = new Map<string, ScriptedReply[]>();
  private readonly used = new Map<string, number>();

  constructor(
    readonly label: string,
    scenario: Scenario,
    readonly latencyMs = 0,
  ) {
    for (const entry of scenario.replies) {
      const id = seriesIdentity({ role: entry.role, action: entry.action, key: entry.key ?? null });
      this.series.set(id, [...(this.series.get(id) ?? []), entry]);
    }
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const text = this.take(request.call);
    if (this.latencyMs > 0) await sleep(this.latencyMs, undefined, { signal: request.signal });
    return { text, usage: null, finishReason: 'stop' };
  }

  /** The next reply of the call's series, as text; SCRIPT_EXHAUSTED when none is left. */
  take(call: CallMeta): string {
    const id = seriesIdentity(call);
    const used = this.used.get(id) ?? 0;
    const next = this.series.get(id)?.[used];
    if (!next) {
      throw new SopworksError('SCRIPT_EXHAUSTED', `The scenario has no reply left for ${describeCall(call)} (${used} consumed).`, {
        hint: `Add a reply with role: ${call.role}, action: ${call.action}${call.key ? `, key: ${call.key}` : ''} to ${this.label.replace(/^scripted:/, '')}.`,
      });
    }
    this.used.set(id, used + 1);
    return replyText(next);
  }

  /** The reply of the call's series handed out last, as text; null when none was. */
  lastTaken(call: CallMeta): string | null {
    const id = seriesIdentity(call);
    const used = this.used.get(id) ?? 0;
    const entry = used > 0 ? this.series.get(id)?.[used - 1] : undefined;
    return entry ? replyText(entry) : null;
  }

  /**
   * Skips the replies a previous process already used (per {role, action, key}, as counted from its
   * exchange log), so a resumed run continues the script where it stopped.
   */
  skipUsed(used: Map<string, number>): void {
    for (const [call, count] of used) {
      if (!this.series.has(call)) continue;
      this.used.set(call, Math.min(this.series.get(call)!.length, (this.used.get(call) ?? 0) + count));
    }
  }

  /** Replies never asked for — a scenario that no longer matches its SOPs shows up here. */
  unused(): ScriptedReply[] {
    return [...this.series].flatMap(([id, replies]) => replies.slice(this.used.get(id) ?? 0));
  }
}
