/**
 * `--chaos <rate>`: a scripted scenario answered the way real models answer — that share of calls gets
 * a spoiled reply (fault-classes.ts) instead of the scenario's, and a re-ask after one gets the
 * scenario's real reply. Which calls, and how, is drawn from the seed and the call's identity
 * (draws.ts), so a run resumed after any stop meets the same faults; every fault is recorded with its
 * exchange (`injected`), so every figure can be traced to its cause.
 *
 * Only first asks are spoiled, and only replies the parsers take as they are: a scenario's own broken
 * reply already tests the repair it was written for, and its re-asks follow the script.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { callIdentity } from '../../../engine/effect-identity.ts';
import type { ExchangeRecord } from '../exchange-record.ts';
import type { CallMeta, Completion, CompletionRequest, Provider } from '../provider.ts';
import type { ScriptedProvider } from '../providers/scripted.ts';
import { type RetryEvent, type RetryPolicy, withRetries } from '../retry.ts';
import { decideRetry } from '../retry-decision.ts';
import type { ChaosSettings } from './chaos-settings.ts';
import { readCleanReply } from './clean-reply.ts';
import { type Draws, drawsFor } from './draws.ts';
import { FAULT_CLASSES, type FaultClass } from './fault-classes.ts';

export class ChaosProvider implements Provider {
  readonly label: string;
  /** Calls whose first ask got a spoiled reply: a re-ask gets the scenario's real one. */
  private readonly owed = new Set<string>();

  /**
   * `scenario`: what tells this scenario's calls from another's with the same names (its file's name),
   * so that a suite of scenarios meets different faults under one seed, on any machine.
   */
  constructor(
    private readonly inner: ScriptedProvider,
    private readonly scenario: string,
    readonly chaos: ChaosSettings,
    private readonly retry: RetryPolicy,
    private readonly onRetry?: (call: CallMeta, event: RetryEvent) => void,
    /** The classes drawn from (all by default; a test may name one). */
    private readonly classes: readonly FaultClass[] = FAULT_CLASSES,
  ) {
    this.label = `${inner.label} with chaos ${chaos.rate} (seed ${chaos.seed})`;
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const id = callIdentity(request.call, request.occurrence ?? 0);
    if ((request.attempt ?? 1) > 1 && this.owed.delete(id)) {
      await this.pause(request.signal);
      return { text: this.inner.lastTaken(request.call) ?? '', usage: null, finishReason: 'stop', reusedReply: true };
    }
    const text = this.inner.take(request.call);
    await this.pause(request.signal);
    const clean: Completion = { text, usage: null, finishReason: 'stop' };
    if ((request.attempt ?? 1) > 1) return clean;
    const draws = drawsFor(this.chaos.seed, this.scenario, id);
    if (draws.next() >= this.chaos.rate) return clean;
    const reply = readCleanReply(text, request);
    if (!reply) return clean;
    for (const fault of shuffled(this.classes, draws)) {
      if (!fault.kinds.includes(reply.kind)) continue;
      if (fault.expect === 'retried') {
        const spoiled = await this.failFirst(fault, draws, request, clean);
        if (spoiled) return spoiled;
        continue;
      }
      const spoiled = fault.spoil(reply, draws);
      if (!spoiled) continue;
      this.owed.add(id);
      return { text: spoiled.text, usage: null, finishReason: spoiled.finishReason ?? 'stop', injected: { fault: fault.id, expect: fault.expect } };
    }
    return clean;
  }

  /** A server fault: the request fails once or twice, as the real retry loop sees it, then the real reply comes. */
  private async failFirst(
    fault: Extract<FaultClass, { expect: 'retried' }>,
    draws: Draws,
    request: CompletionRequest,
    clean: Completion,
  ): Promise<Completion | null> {
    const failures = Math.min(draws.int(1, 2), this.retry.maxRetries);
    if (failures === 0) return null;
    let sent = 0;
    const outcome = await withRetries(
      async () => {
        if (sent++ < failures) throw fault.error(draws);
        return clean;
      },
      this.retry,
      { signal: request.signal, decide: decideRetry, onRetry: (event) => this.onRetry?.(request.call, event) },
    );
    if (!outcome.ok) throw outcome.error;
    return { ...clean, retries: outcome.retries, injected: { fault: fault.id, expect: 'retried' } };
  }

  private async pause(signal: AbortSignal | undefined): Promise<void> {
    if (this.inner.latencyMs > 0) await sleep(this.inner.latencyMs, undefined, { signal });
  }

  skipUsed(used: Map<string, number>): void {
    this.inner.skipUsed(used);
  }

  /** A call whose last recorded attempt was spoiled, cut off by a stop before its re-ask, is owed its real reply. */
  resumeFrom(records: readonly ExchangeRecord[]): void {
    const last = new Map<string, ExchangeRecord>();
    for (const record of records) last.set(callIdentity(record, record.occurrence), record);
    for (const [id, record] of last) if (record.injected && record.injected.expect !== 'retried') this.owed.add(id);
  }
}

/** The classes in an order drawn for this call: the first that applies to the reply is used. */
function shuffled<T>(items: readonly T[], draws: Draws): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(draws.next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
