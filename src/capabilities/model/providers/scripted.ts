/**
 * The scripted provider replays a scenario: replies are matched by {role, action, key} and consumed in
 * order. It is a test double and the offline demo — it generates nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SopworksError } from '../../../ground/errors.ts';
import { describeCall, type Completion, type CompletionRequest, type Provider } from '../provider.ts';
import { seriesIdentity } from '../../../engine/effect-identity.ts';
import { replyText, type Scenario, type ScriptedReply } from '../scenario.ts';

export class ScriptedProvider implements Provider {
  private readonly queues = new Map<string, ScriptedReply[]>();
  private readonly consumed = new Map<string, number>();

  constructor(
    readonly label: string,
    scenario: Scenario,
    private readonly latencyMs = 0,
  ) {
    for (const entry of scenario.replies) {
      const id = seriesIdentity({ role: entry.role, action: entry.action, key: entry.key ?? null });
      this.queues.set(id, [...(this.queues.get(id) ?? []), entry]);
    }
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const id = seriesIdentity(request.call);
    const next = this.queues.get(id)?.shift();
    if (!next) {
      const used = this.consumed.get(id) ?? 0;
      throw new SopworksError('SCRIPT_EXHAUSTED', `The scenario has no reply left for ${describeCall(request.call)} (${used} consumed).`, {
        hint: `Add a reply with role: ${request.call.role}, action: ${request.call.action}${request.call.key ? `, key: ${request.call.key}` : ''} to ${this.label.replace(/^scripted:/, '')}.`,
      });
    }
    this.consumed.set(id, (this.consumed.get(id) ?? 0) + 1);
    if (this.latencyMs > 0) await sleep(this.latencyMs, undefined, { signal: request.signal });
    return { text: replyText(next), usage: null, finishReason: 'stop' };
  }

  /**
   * Skips the replies a previous process already used (per {role, action, key}, as counted from its
   * exchange log), so a resumed run continues the script where it stopped.
   */
  skipUsed(used: Map<string, number>): void {
    for (const [call, count] of used) {
      const queue = this.queues.get(call);
      if (!queue) continue;
      queue.splice(0, count);
      this.consumed.set(call, (this.consumed.get(call) ?? 0) + count);
    }
  }

  /** Replies never asked for — a scenario that no longer matches its SOPs shows up here. */
  unused(): ScriptedReply[] {
    return [...this.queues.values()].flat();
  }
}
