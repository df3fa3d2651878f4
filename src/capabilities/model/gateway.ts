/**
 * The one way to the model. In order: render the prompt → call the provider → parse → validate →
 * on failure re-ask with the validation errors (bounded) → meter tokens → record the exchange.
 */

import type { AskRequest, ModelPort, OutputSpec } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import type { Budget } from './budget.ts';
import { type ProgressReport, progressReporter } from './call-progress.ts';
import { checkFits, replyLimitsOf } from './context-fit.ts';
import { CutOffAllowance } from './cut-off-allowance.ts';
import type { ExchangeReplay } from './exchange-log.ts';
import type { ExchangeRecord } from './exchange-record.ts';
import { fallbackReason, MODEL_NOT_FOUND } from './fallback-reason.ts';
import { fittedVariables } from './fit-files.ts';
import { chainHas, exchangeOf, usedUp } from './gateway-records.ts';
import { LOOP_RULE, LoopGuard } from './loop-guard.ts';
import type { ParseResult } from './parse/result.ts';
import { costOf, type Price } from './prices.ts';
import type { PromptRenderer } from './prompt-renderer.ts';
import { type CallMeta, type ChatMessage, type Completion, describeCall, type ModelRoute, type Provider } from './provider.ts';
import { promptCacheKeyOf } from './providers/prompt-cache-key.ts';
import { reaskOf } from './reask.ts';
import { formatOf, judgeReply, strictSchemaOf } from './reply-format.ts';
import { countPromptTokens, countTextTokens } from './token-count.ts';
import type { CallRecord, UsageMeter } from './usage.ts';
import type { WarmUp, WarmUpTask } from './warm-up.ts';

export type { AskRequest, OutputSpec };

export type GatewayEvent =
  /** `seat`: which of the role's people is asked, when the run hires several (`--engineers N`). */
  | { kind: 'call-start'; call: CallMeta; seat?: string }
  | { kind: 'call-repair'; call: CallMeta; attempt: number; error: string }
  /** The call goes to the role's next model (`from` could not answer it, for `reason`). */
  | { kind: 'call-fallback'; call: CallMeta; from: string; to: string; reason: string }
  /**
   * A long request under way (call-progress.ts): its phase, the tokens written so far and their rate,
   * the prompt tokens being read, and the time since the request was sent. At most one a second per call.
   */
  | { kind: 'call-progress'; call: CallMeta; progress: ProgressReport }
  /** `text`: the prompt and the reply that was taken, for observers that record content (tracing, when asked). */
  | { kind: 'call-end'; call: CallMeta; record: CallRecord; text?: { prompt: readonly ChatMessage[]; reply: string } };

export interface GatewayOptions {
  provider: Provider;
  renderer: PromptRenderer;
  meter: UsageMeter;
  /** Where every exchange (prompt and reply) is recorded; null to keep none. */
  exchanges: { append(record: ExchangeRecord): Promise<void> } | null;
  maxRepairs: number;
  /**
   * Attempts recorded before a restart: answered from here, not sent (and not paid for) again — except a
   * call whose recorded attempts failed the step (all invalid, or a loop), which is asked again.
   */
  replay?: ExchangeReplay;
  /**
   * A person's guidance (`sopworks resume --hint`), shown in the prompt of each call asked again because
   * its recorded attempts failed the step; null or absent: none.
   */
  guidance?: string | null;
  /** Checked before every call; null for an unbounded run. */
  budget?: Budget | null;
  /** The model's price, for the cost of each call; null when unknown. */
  price?: Price | null;
  /** The largest reply a call may produce (the budget check assumes it). */
  maxOutputTokens?: number;
  onEvent?: (event: GatewayEvent) => void;
  /** Where work prepared ahead of need is queued (`prepareWhileWaiting`); none: it is done when needed. */
  warmUp?: WarmUp;
  /** The run's part of each request's prompt cache key (a key per run and role); none: requests carry none. */
  promptCacheScope?: string | null;
}

export class Gateway implements ModelPort {
  /** Tells a loop (the same reply twice in a row) from progress. */
  private readonly loops: LoopGuard;

  constructor(private readonly options: GatewayOptions) {
    this.loops = new LoopGuard(options.replay?.records ?? []);
  }

  get provider(): Provider {
    return this.options.provider;
  }

  async ask(request: AskRequest): Promise<unknown> {
    const { renderer, onEvent } = this.options;
    const chain = this.chainFor(request.call.role);
    // The format states the limits of the role's first model: its caps, and how long its reply may be.
    const format = formatOf(request.output, {
      caps: chain[0]?.provider.schemaCaps ?? null,
      ...(chain[0] ? replyLimitsOf(request, chain[0]) : { replyTokens: null }),
    });
    const round = this.recordedRound(request, chain);
    const guidance = round.rejected ? (this.options.guidance ?? null) : null;
    const rules = [...(request.rules ?? []), ...(this.loops.applies(request) ? [LOOP_RULE] : [])];
    const render = (variables: Record<string, unknown>) => renderer.render(request.profile, request.call.action, variables, format, guidance, rules);
    // A list of files more than the model's context holds is shown in part by interface (fit-files.ts).
    const variables = await fittedVariables(request, chain, (v) => {
      const { system, user } = render(v);
      return [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ];
    });
    const prompt = render(variables);
    const opening: ChatMessage[] = [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ];
    const jsonSchema = request.output.kind === 'json' ? { name: request.output.name, schema: strictSchemaOf(request.output.schema).schema } : null;
    const started = Date.now();
    const tokens: Tally = { promptTokens: 0, completionTokens: 0, counted: false, costUsd: 0, retries: 0 };
    onEvent?.({ kind: 'call-start', call: request.call, ...(request.profile.seat ? { seat: request.profile.title } : {}) });

    // Attempts are numbered across the chain, so a resumed run finds each one, whichever model made it.
    const attempts = { made: 0, repairs: 0 };
    const turn: Turn = { request, messages: [], jsonSchema, format, tokens, attempts, recorded: round.attempts, chain };
    let lastError = '';
    let failure: unknown = null;
    for (const [index, route] of chain.entries()) {
      const outcome = await this.askModel(route, { ...turn, messages: [...opening] });
      if (outcome.kind === 'answered') {
        const record = { ...request.call, ...tokens, repairs: attempts.repairs, ms: Date.now() - started, ok: true, model: route.label };
        this.options.meter.record(record);
        onEvent?.({ kind: 'call-end', call: request.call, record, text: { prompt: opening, reply: outcome.text } });
        this.loops.check(request, outcome.text);
        return outcome.value;
      }
      const next = chain[index + 1];
      if (outcome.kind === 'unavailable') {
        if (outcome.reason === MODEL_NOT_FOUND) this.missingModels.add(route.label);
        if (!next) {
          this.finishFailed(request, tokens, attempts.repairs, started, route.label);
          throw outcome.error;
        }
        onEvent?.({ kind: 'call-fallback', call: request.call, from: route.label, to: next.label, reason: outcome.reason });
        continue;
      }
      lastError = outcome.error;
      failure = outcome.failure ?? null;
      if (next) onEvent?.({ kind: 'call-fallback', call: request.call, from: route.label, to: next.label, reason: 'replies still invalid after the re-asks' });
    }
    this.finishFailed(request, tokens, attempts.repairs, started, chain.at(-1)!.label);
    if (failure) throw failure;
    const tried = chain.length > 1 ? ` (models tried: ${chain.map((r) => r.label).join(', ')})` : '';
    throw new SopworksError(
      'REPLY_INVALID',
      `The model's reply for ${describeCall(request.call)} was still invalid after ${attempts.made} attempts${tried}: ${lastError}`,
      {
        hint: 'Every attempt is in .sopworks/exchanges.jsonl. `sopworks resume <project folder>` asks the step again — with --model for a stronger model, or --hint "…" to tell the model what to fix; an edit to the template helps too.',
      },
    );
  }

  /** Models the endpoint said it does not know: later calls go straight to the next one in their chain. */
  private readonly missingModels = new Set<string>();

  /** The models that answer a role: its chain when the provider routes per role, else the one provider. */
  private chainFor(role: string): readonly ModelRoute[] {
    const { provider } = this.options;
    const chain = provider.chainFor?.(role);
    if (chain && chain.length > 0) {
      const known = chain.filter((route) => !this.missingModels.has(route.label));
      return known.length > 0 ? known : chain.slice(-1);
    }
    return [{ label: provider.label, provider, price: this.options.price ?? null, maxOutputTokens: this.options.maxOutputTokens ?? 4096 }];
  }

  /**
   * One model's turn at a call: its first answer and the re-asks (bounded). Ends answered, with the reply
   * still invalid, or with the model unavailable for a reason another model could avoid (fallback-reason.ts).
   */
  private async askModel(route: ModelRoute, turn: Turn): Promise<ModelOutcome> {
    const { renderer, maxRepairs, onEvent } = this.options;
    const { request, messages, format, tokens, attempts } = turn;
    const opening = [...messages];
    const cutOff = route.provider.cutOffLimits ? new CutOffAllowance(route.provider.cutOffLimits) : null;
    let lastError = '';
    // Every error of this turn, shown again with the next re-ask: one error at a time, a model flips between two answers.
    const errors: string[] = [];
    for (let step = 1; step <= maxRepairs + 1; step++) {
      const attempt = ++attempts.made;
      if (step > 1) attempts.repairs++;
      const sentAt = Date.now();
      const recorded = turn.recorded[attempt - 1];
      // A resumed run follows the recorded attempts: one that another model made means this one was passed over.
      if (recorded?.model !== undefined && recorded.model !== route.label && chainHas(turn.chain, recorded.model)) {
        attempts.made--;
        return {
          kind: 'unavailable',
          reason: recorded.unavailable ?? MODEL_NOT_FOUND,
          error: new SopworksError('MODEL_ERROR', `${route.label} was passed over`),
        };
      }
      if (recorded?.unavailable) {
        return { kind: 'unavailable', reason: recorded.unavailable, error: new SopworksError('MODEL_ERROR', recorded.error ?? recorded.unavailable) };
      }
      let text: string;
      let parsed: ParseResult<unknown> | null = null;
      if (recorded) {
        text = recorded.reply;
        tokens.promptTokens += recorded.usage.promptTokens;
        tokens.completionTokens += recorded.usage.completionTokens;
        addCached(tokens, recorded.usage.cachedPromptTokens);
        tokens.costUsd = addCost(tokens.costUsd, recorded.costUsd ?? null);
      } else {
        const live = await this.callLive(route, turn, { attempt, sentAt, cutOff });
        if ('kind' in live) return live;
        ({ text, parsed } = live);
      }
      parsed ??= judgeReply(text, recorded?.finishReason ?? null, request);
      if (parsed.ok) return { kind: 'answered', value: parsed.value, text };
      lastError = parsed.error;
      if (step <= maxRepairs) {
        onEvent?.({ kind: 'call-repair', call: request.call, attempt: step, error: parsed.error });
        // The re-ask is the first request with the error and an excerpt of the reply appended — never the
        // whole reply, which could be thousands of tokens (reask.ts) — so its prompt keeps the first one's prefix.
        const reask = reaskOf(text, parsed.error, (t) => route.provider.countTextTokens?.(t) ?? countTextTokens(t), undefined, errors);
        errors.push(parsed.error);
        const first = opening.at(-1)!;
        messages.splice(0, messages.length, ...opening.slice(0, -1), {
          ...first,
          content: `${first.content.trimEnd()}\n\n${renderer.renderRepair(reask, format)}`,
        });
      }
    }
    return { kind: 'invalid', error: lastError };
  }

  /** A call the model answers now (not one recorded): checked against the budget and context, sent, metered, logged. */
  private async callLive(
    route: ModelRoute,
    { request, messages, jsonSchema, tokens }: Turn,
    { attempt, sentAt, cutOff }: { attempt: number; sentAt: number; cutOff: CutOffAllowance | null },
  ): Promise<ModelOutcome | { text: string; parsed: ParseResult<unknown> }> {
    const { exchanges, budget, onEvent } = this.options;
    budget?.check(request.call, countPromptTokens(messages), route.maxOutputTokens, route.price);
    if (cutOff && !cutOff.roomForAnother) {
      const exhausted = cutOff.exhausted(request.call);
      return { kind: 'invalid', error: exhausted.message, failure: exhausted };
    }
    let completion: Completion;
    try {
      checkFits(request, route, messages);
      const pending = route.provider.complete({
        call: request.call,
        messages,
        jsonSchema,
        output: request.output,
        signal: request.signal,
        occurrence: request.occurrence,
        attempt,
        ...(onEvent ? { onProgress: progressReporter((progress) => onEvent({ kind: 'call-progress', call: request.call, progress })) } : {}),
        ...(cutOff ? { continuationTokens: cutOff.remaining } : {}),
        ...(this.options.promptCacheScope ? { cacheKey: promptCacheKeyOf(this.options.promptCacheScope, request.call.role) } : {}),
      });
      this.startWarmUp();
      completion = await pending;
    } catch (error) {
      const reason = fallbackReason(error);
      if (reason === null) throw error;
      // Recorded, so a resumed run moves on to the next model as this one did, without asking again.
      await exchanges?.append({
        ...exchangeOf(request, attempt, route, messages, sentAt),
        reply: '',
        finishReason: null,
        usage: { promptTokens: 0, completionTokens: 0 },
        usageCounted: false,
        costUsd: 0,
        retries: 0,
        continuations: 0,
        ok: false,
        unavailable: reason,
        error: (error as Error).message,
      });
      return { kind: 'unavailable', reason, error };
    }
    const text = completion.text;
    const usage = completion.usage ?? {
      promptTokens: countPromptTokens(messages),
      completionTokens: countTextTokens(completion.text),
    };
    budget?.charge(usage, route.price);
    cutOff?.record(completion, usage.completionTokens);
    const costUsd = costOf(usage, route.price);
    tokens.promptTokens += usage.promptTokens;
    tokens.completionTokens += usage.completionTokens;
    addCached(tokens, usage.cachedPromptTokens);
    tokens.counted ||= completion.usage === null;
    tokens.costUsd = addCost(tokens.costUsd, costUsd);
    tokens.retries += completion.retries ?? 0;
    const parsed = judgeReply(text, completion.finishReason, request);
    await exchanges?.append({
      ...exchangeOf(request, attempt, route, messages, sentAt),
      reply: text,
      finishReason: completion.finishReason,
      usage,
      usageCounted: completion.usage === null,
      costUsd,
      retries: completion.retries ?? 0,
      continuations: completion.continuations ?? 0,
      ok: parsed.ok,
      error: parsed.ok ? null : parsed.error,
      ...(completion.injected ? { injected: completion.injected } : {}),
      ...(completion.reusedReply ? { reusedReply: true } : {}),
    });
    return { text, parsed };
  }

  private finishFailed(request: AskRequest, tokens: Tally, repairs: number, started: number, model: string): void {
    const record = { ...request.call, ...tokens, repairs, ms: Date.now() - started, ok: false, model };
    this.options.meter.record(record);
    this.options.onEvent?.({ kind: 'call-end', call: request.call, record });
  }

  /**
   * The recorded attempts to answer a call from (exchange-log.ts), and whether a recorded round was
   * rejected: one that failed the step — every model of the role's chain used up, or cut-off replies that
   * used up the step's allowance (a round stopped right after a cut-off reply, with room left, is carried
   * on) — or a valid reply the loop guard stopped (the same as the call before it). Replayed, either
   * would end the step exactly as before; the model is asked again instead.
   */
  private recordedRound(request: AskRequest, chain: readonly ModelRoute[]): { attempts: readonly ExchangeRecord[]; rejected: boolean } {
    const replay = this.options.replay;
    if (!replay) return { attempts: [], rejected: false };
    const everything = replay.recorded(request.call, request.occurrence);
    const round = replay.round(request.call, request.occurrence, Number.POSITIVE_INFINITY, chain[0]?.provider.cutOffLimits ?? null);
    const last = round.at(-1);
    if (last?.ok && this.loops.isLoop(request, last.reply)) return { attempts: [], rejected: true };
    if (usedUp(round, chain, this.options.maxRepairs + 1)) return { attempts: [], rejected: true };
    return { attempts: round, rejected: round.length === 0 && everything.length > 0 };
  }

  /**
   * Queues work that later steps would otherwise do on the run's critical path (compiling their
   * templates and schemas, say) to be done once the first model call is out, while the process waits.
   */
  prepareWhileWaiting(tasks: readonly WarmUpTask[]): void {
    if (this.options.warmUp) this.later.push(...tasks);
  }

  private readonly later: WarmUpTask[] = [];

  private startWarmUp(): void {
    if (this.later.length > 0) this.options.warmUp?.add(this.later.splice(0));
  }
}

/** An attempt's cached tokens, when its provider said them. */
function addCached(tokens: Tally, cached: number | undefined): void {
  if (cached !== undefined) tokens.cachedPromptTokens = (tokens.cachedPromptTokens ?? 0) + cached;
}

interface Tally {
  promptTokens: number;
  completionTokens: number;
  /** Said by the provider for an attempt or more; absent while none said. */
  cachedPromptTokens?: number;
  counted: boolean;
  costUsd: number | null;
  retries: number;
}

type ModelOutcome =
  | { kind: 'answered'; value: unknown; text: string }
  /** `failure`: the error to end the step with when no model is left, when it says more than the last parse error. */
  | { kind: 'invalid'; error: string; failure?: SopworksError }
  | { kind: 'unavailable'; reason: string; error: unknown };

/** What one call carries from model to model of its chain. */
interface Turn {
  request: AskRequest;
  messages: ChatMessage[];
  jsonSchema: { name: string; schema: Record<string, unknown> } | null;
  format: ReturnType<typeof formatOf>;
  tokens: Tally;
  attempts: { made: number; repairs: number };
  /** The recorded attempts of the round being replayed, by attempt number − 1. */
  recorded: readonly ExchangeRecord[];
  chain: readonly ModelRoute[];
}

const addCost = (total: number | null, cost: number | null): number | null => (total === null || cost === null ? null : total + cost);
