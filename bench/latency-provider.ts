/**
 * The benchmark's model: the scripted provider, slowed down like a real model — each reply takes a
 * fixed latency plus a time per output token — and watched: it records when each call was waiting on
 * the "model", so the benchmark can tell model time from the company's own overhead.
 *
 * Like an OpenAI-compatible server, it reports the usage of each call, counted on its own time (inside
 * the simulated wait): sopworks counts tokens itself only for a provider that reports none, and that
 * cost is measured separately (docs/performance.md).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Completion, CompletionRequest, Provider } from '../src/capabilities/model/provider.ts';
import { ScriptedProvider } from '../src/capabilities/model/providers/scripted.ts';
import { replyText, type Scenario } from '../src/capabilities/model/scenario.ts';
import { countPromptTokens, countTextTokens } from '../src/capabilities/model/token-count.ts';

export interface Latency {
  fixedMs: number;
  perTokenMs: number;
}

export const latencyOf = (text: string, latency: Latency): number => latency.fixedMs + latency.perTokenMs * countTextTokens(text);

export class LatencyProvider implements Provider {
  readonly label: string;
  private readonly inner: ScriptedProvider;
  /** Reply text → its output tokens, counted before the run so the run pays no tokenizer time for it. */
  private readonly replyTokens = new Map<string, number>();
  /** [start, end] of every simulated wait, in ms since the epoch. */
  readonly waits: [number, number][] = [];

  constructor(
    scenario: Scenario,
    private readonly latency: Latency,
  ) {
    this.inner = new ScriptedProvider('scripted:bench', scenario, 0);
    this.label = `scripted:bench (${latency.fixedMs} ms + ${latency.perTokenMs} ms/token)`;
    for (const reply of scenario.replies) {
      const text = replyText(reply);
      this.replyTokens.set(text, countTextTokens(text));
    }
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const completion = await this.inner.complete(request);
    const start = Date.now();
    const completionTokens = this.replyTokens.get(completion.text) ?? countTextTokens(completion.text);
    const usage = { promptTokens: countPromptTokens(request.messages), completionTokens };
    const ms = this.latency.fixedMs + this.latency.perTokenMs * completionTokens;
    await sleep(Math.max(0, ms - (Date.now() - start)), undefined, { signal: request.signal });
    this.waits.push([start, Date.now()]);
    return { ...completion, usage };
  }

  /** How long at least one call was waiting on the model. */
  busyMs(): number {
    const sorted = [...this.waits].sort((a, b) => a[0] - b[0]);
    let total = 0;
    let [from, to] = [-Infinity, -Infinity];
    for (const [start, end] of sorted) {
      if (start > to) {
        if (to > from) total += to - from;
        [from, to] = [start, end];
      } else {
        to = Math.max(to, end);
      }
    }
    if (to > from) total += to - from;
    return total;
  }
}
