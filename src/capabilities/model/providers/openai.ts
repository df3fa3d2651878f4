/**
 * The OpenAI provider: LangChain's ChatOpenAI (built through `initChatModel`), pointed at OpenAI or any
 * OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp's server) by its base URL.
 *
 * What real endpoints do, and what happens here:
 * - 429 (with or without Retry-After), 5xx, a timeout, a connection reset: sent again with backoff,
 *   bounded (src/capabilities/model/retry.ts); the count is reported as `retries` for the gateway to meter.
 * - `finish_reason: "length"`: the reply is continued — the model is shown what it wrote and asked for
 *   the rest, which is appended — at most SOPWORKS_MAX_CONTINUATIONS times. A reply still cut off is
 *   returned as it is; the parser sees it is incomplete and the gateway re-asks.
 * - `response_format` rejected (a 4xx/5xx naming it): structured output is turned off for the rest of
 *   the run, said once, and the request sent again; the format is described in the prompt anyway, and
 *   the gateway's parse, repair and validation do the rest.
 * - A 200 that is not a chat completion (an HTML page, an event stream, no choices, an empty body):
 *   an error saying what came back and its likely cause (endpoint/checked-fetch.ts), not retried.
 * - A 5xx: retried; if it keeps coming, the error quotes the server's own text.
 * Whatever still fails is mapped to an error that says what to fix.
 */

import type { BaseMessageLike } from '@langchain/core/messages';
import type { ChatOpenAICallOptions } from '@langchain/openai';
import { initChatModel } from 'langchain';
import { SopworksError } from '../../../ground/errors.ts';
import { cleanLine } from '../../../ground/terminal-text.ts';
import type { ContextPlan } from '../context-plan.ts';
import { checkedFetch, notACompletionMessage } from '../endpoint/checked-fetch.ts';
import { lacksV1 } from '../endpoint/not-a-completion.ts';
import { reachHint } from '../endpoint/reach-hint.ts';
import { isContextOverflow } from '../fallback-reason.ts';
import { type CallMeta, type ChatMessage, type Completion, type CompletionRequest, describeCall, type Provider, type Usage } from '../provider.ts';
import { quotaError, quotaWaitNotice } from '../quota-error.ts';
import { type QuotaWait, type RetryEvent, type RetryOutcome, withRetries } from '../retry.ts';
import { decideRetry, type RetryDecision } from '../retry-decision.ts';
import type { SchemaCaps } from '../schema-caps.ts';
import type { ModelSettings } from '../settings.ts';
import { countTextTokens } from '../token-count.ts';
import { CONTINUE_PROMPT } from './continue-prompt.ts';
import { refused, serverText } from './error-text.ts';
import { rejectsFormat, StructuredOutputRejected } from './format-rejection.ts';
import { addCached, textOf, usageOf } from './openai-reply.ts';
import { isSdkError, leftUnparsed } from './openai-sdk.ts';
import { PlannedLimits } from './planned-limits.ts';
import { PromptCacheKeyRejected, promptCacheKeyNotice, rejectsPromptCacheKey, sendsPromptCacheKey } from './prompt-cache-key.ts';
import { schemaSent } from './schema-sent.ts';

type ChatModel = Awaited<ReturnType<typeof initChatModel>>;
/** One request's answer. */
interface Answer {
  text: string;
  usage: Usage | null;
  finishReason: string | null;
}
type StructuredOutput = ModelSettings['structuredOutput'];

export interface OpenAIProviderHooks {
  /** Told once, e.g. that structured output was turned off. Default: printed on stderr. */
  onNotice?: (message: string) => void;
  /** Each retry as it is decided, with the wait before it. */
  onRetry?: (call: CallMeta, event: RetryEvent) => void;
  /** A limit's reset waited out (SOPWORKS_WAIT_FOR_QUOTA), as the wait begins. */
  onQuotaWait?: (call: CallMeta, wait: QuotaWait) => void;
}

export class OpenAIProvider implements Provider {
  readonly label: string;
  /** Starts as configured; turned to "off" for the rest of the run when the endpoint rejects it. */
  private structuredOutput: StructuredOutput;
  private fallbackAnnounced = false;
  /** Whether requests carry their prompt_cache_key: where the endpoint takes it, until it refuses it. */
  private sendsCacheKey: boolean;

  private constructor(
    private readonly model: ChatModel,
    private readonly settings: ModelSettings,
    private readonly hooks: OpenAIProviderHooks,
  ) {
    this.label = `openai:${settings.model}${settings.baseUrl ? ` at ${settings.baseUrl}` : ''}`;
    this.structuredOutput = settings.structuredOutput;
    this.sendsCacheKey = sendsPromptCacheKey(settings.promptCacheKey, settings.baseUrl);
  }

  static async create(settings: ModelSettings, hooks: OpenAIProviderHooks = {}): Promise<OpenAIProvider> {
    const model = await initChatModel(settings.model, {
      modelProvider: 'openai',
      // Local servers take any key; the client insists on one.
      apiKey: settings.apiKey ?? 'not-needed-for-local-servers',
      // The platform's fetch, but a 200 that is not a chat completion is an error that says what came back.
      configuration: { ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}), fetch: checkedFetch(settings.baseUrl ?? 'https://api.openai.com/v1') },
      // Retries are ours (see retry.ts): LangChain's would stack on top and skip a 429 without Retry-After.
      maxRetries: 0,
      timeout: settings.timeoutMs,
      maxTokens: settings.maxOutputTokens,
      temperature: settings.temperature ?? undefined,
      // The raw reply is kept for its `refusal`, which LangChain does not carry over (see textOf).
      __includeRawResponse: true,
    });
    return new OpenAIProvider(model, settings, hooks);
  }

  get cutOffLimits(): { perStep: number; perRequest: number } {
    return { perStep: this.settings.maxCutOffTokens, perRequest: this.settings.maxOutputTokens };
  }

  /** The structured output mode in use now: "off" after the endpoint rejected the configured one. */
  get structuredOutputMode(): StructuredOutput {
    return this.structuredOutput;
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const counts = { retries: 0, continuations: 0, withheldTokens: 0 };
    let text = '';
    let usage: Usage | null = { promptTokens: 0, completionTokens: 0 };
    let finishReason: string | null = null;
    for (;;) {
      const continuing = counts.continuations > 0;
      const messages: ChatMessage[] = continuing
        ? [...request.messages, { role: 'assistant', content: text }, { role: 'user', content: CONTINUE_PROMPT }]
        : request.messages;
      // A continuation is a fragment, not a whole object: a response_format would make the model start over.
      const answer = await this.send(messages, request, !continuing, counts);
      text += answer.text;
      // One request without counts makes the whole unknown: the gateway then counts the tokens itself.
      usage =
        usage && answer.usage
          ? {
              promptTokens: usage.promptTokens + answer.usage.promptTokens,
              completionTokens: usage.completionTokens + answer.usage.completionTokens,
              ...addCached(usage.cachedPromptTokens, answer.usage.cachedPromptTokens),
            }
          : null;
      finishReason = answer.finishReason;
      if (finishReason !== 'length' || counts.continuations >= this.planned.continuations(request.output, this.settings.maxContinuations)) break;
      // A continuation may produce a whole reply's worth: sent only while the step's allowance has room.
      const spent = (usage?.completionTokens ?? countTextTokens(text)) + counts.withheldTokens;
      if (request.continuationTokens !== undefined && spent + this.settings.maxOutputTokens > request.continuationTokens) break;
      counts.continuations++;
    }
    // A reply the SDK withheld (cut off under json_schema) was produced, and paid for, all the same.
    if (usage && counts.withheldTokens > 0) usage = { ...usage, completionTokens: usage.completionTokens + counts.withheldTokens };
    return { text, usage, finishReason, retries: counts.retries, continuations: counts.continuations };
  }

  /** One request, retried on transient faults; falls back to no response_format when the endpoint rejects it. */
  private async send(
    messages: ChatMessage[],
    request: CompletionRequest,
    structured: boolean,
    counts: { retries: number; withheldTokens: number },
  ): Promise<Answer> {
    // A signal of this request's own, following the run's: the client and the retry waits add their
    // abort listeners to it, not to the run's signal, which every request in flight shares (eleven at
    // once would make Node print a MaxListenersExceededWarning). AbortSignal.any holds no listener.
    const signal = request.signal ? AbortSignal.any([request.signal]) : undefined;
    const options: Partial<ChatOpenAICallOptions> = { signal };
    const format = structured && request.jsonSchema ? this.structuredOutput : 'off';
    if (request.jsonSchema && format === 'json_schema') {
      options.response_format = leftUnparsed({
        type: 'json_schema' as const,
        json_schema: { name: request.jsonSchema.name, schema: schemaSent(request, this.settings.baseUrl, this.planned.caps), strict: true },
      });
    } else if (request.jsonSchema && format === 'json_object') {
      options.response_format = { type: 'json_object' };
    }
    const cacheKey = this.sendsCacheKey ? request.cacheKey : undefined;
    if (cacheKey) options.promptCacheKey = cacheKey;
    const input: BaseMessageLike[] = messages.map((m) => ({ role: m.role, content: m.content }));
    // Without streaming, a server says nothing until it answers: the progress line shows the wait.
    request.onProgress?.({ phase: 'waiting', tokens: 0 });
    const outcome = await withRetries(
      async () => {
        try {
          return await this.model.invoke(input, options as never);
        } catch (error) {
          if (cacheKey && rejectsPromptCacheKey(error)) throw new PromptCacheKeyRejected(error);
          throw options.response_format && rejectsFormat(error) ? new StructuredOutputRejected(error) : error;
        }
      },
      { maxRetries: this.settings.maxRetries, baseDelayMs: this.settings.retryBaseMs, maxDelayMs: this.settings.retryMaxMs },
      {
        signal,
        onRetry: (event) => this.hooks.onRetry?.(request.call, event),
        decide: (error) =>
          error instanceof StructuredOutputRejected || error instanceof PromptCacheKeyRejected ? { retry: false, reason: error.name } : decideRetry(error),
        ...(this.settings.waitForQuota ? { longWaits: { max: 3, onWait: (wait: QuotaWait) => this.quotaWait(request.call, wait) } } : {}),
      },
    );
    counts.retries += outcome.retries;
    if (outcome.ok) {
      const reply = outcome.value;
      const finishReason = (reply.response_metadata?.finish_reason as string | undefined) ?? null;
      return { text: textOf(reply, finishReason), usage: usageOf(reply), finishReason };
    }
    if (outcome.error instanceof PromptCacheKeyRejected) {
      // Not sent again in this run, said once; the same request goes again without it.
      this.sendsCacheKey = false;
      this.notice(promptCacheKeyNotice(this.where, outcome.error));
      return this.send(messages, request, structured, counts);
    }
    if (outcome.error instanceof StructuredOutputRejected) {
      this.fallBack(format, outcome.error);
      return this.send(messages, request, false, counts);
    }
    if (isSdkError(outcome.error, 'LengthFinishReasonError')) {
      // Cut off under json_schema: the SDK keeps the text from us, so this one request is sent again without
      // response_format — its cut-off text can then be continued.
      // It stopped at the output limit: a whole reply's worth of tokens, counted though its text is lost.
      counts.retries++;
      counts.withheldTokens += this.settings.maxOutputTokens;
      this.hooks.onRetry?.(request.call, {
        retry: counts.retries,
        maxRetries: this.settings.maxRetries,
        reason: 'cut off under json_schema, sent again without response_format',
        waitMs: 0,
        asked: false,
      });
      return this.send(messages, request, false, counts);
    }
    if (isSdkError(outcome.error, 'ContentFilterFinishReasonError')) {
      return { text: '', usage: null, finishReason: 'content_filter' };
    }
    throw this.explain(outcome, request.call);
  }

  /** Limits planned for the model's context window, when it is known (planned-limits.ts). */
  private readonly planned = new PlannedLimits();

  /** The model's context window, when known (SOPWORKS_CONTEXT_WINDOW, or the server's model list). */
  get contextWindow(): number | undefined {
    return this.planned.contextWindow;
  }

  /** Works within limits planned for the model's context window (context-plan.ts): its caps go in the schema. */
  fitTo(plan: ContextPlan): void {
    this.planned.fit(plan);
  }

  /** The caps a planned run puts on strings and lists (null: none), which the prompt's format states. */
  get schemaCaps(): SchemaCaps | null {
    return this.planned.caps;
  }

  /** One request's reply allowance once the window is known: the output limit and its continuations. */
  get replyAllowance(): number | undefined {
    return this.planned.contextWindow === undefined ? undefined : this.planned.allowance(undefined, this.settings);
  }

  /** One request's max_tokens: a reply cut off there is continued, up to the allowance of its shape. */
  get outputLimit(): number {
    return this.settings.maxOutputTokens;
  }

  /** The same for a request of this shape: a reply of files may be continued further. */
  replyAllowanceFor(output: NonNullable<CompletionRequest['output']>): number {
    return this.planned.allowance(output, this.settings);
  }

  private fallBack(format: StructuredOutput, rejection: StructuredOutputRejected): void {
    this.structuredOutput = 'off';
    if (this.fallbackAnnounced) return;
    this.fallbackAnnounced = true;
    const reason = (rejection.original as Error)?.message?.split('\n')[0] ?? rejection.message;
    const message =
      `The model endpoint ${this.where} rejected structured output (response_format ${format}: ${reason}). ` +
      'For the rest of this run the JSON format is described in the prompt only; replies are repaired and validated as before. ' +
      'Set SOPWORKS_STRUCTURED_OUTPUT=off to skip the rejected request next time.';
    this.notice(message);
  }

  /** Told once: to the hooks, else on stderr. */
  private notice(text: string): void {
    (this.hooks.onNotice ?? ((line: string) => process.stderr.write(`notice: ${cleanLine(line)}\n`)))(text);
  }

  private quotaWait(call: CallMeta, wait: QuotaWait): void {
    this.hooks.onQuotaWait?.(call, wait);
    const notice = quotaWaitNotice(this.where, describeCall(call), wait.reason, wait.until, wait.reset);
    this.notice(notice);
  }

  private get where(): string {
    return this.settings.baseUrl ?? 'https://api.openai.com/v1';
  }

  private explain(outcome: Extract<RetryOutcome<unknown>, { ok: false }>, call: CallMeta): Error {
    const { error, retries, stop, decision } = outcome;
    if ((error as Error)?.name === 'AbortError') return error as Error;
    const status = (error as { status?: number }).status;
    const message = ((error as Error)?.message ?? String(error)).split('\n')[0]!;
    const where = this.where;
    const during = describeCall(call);
    const after = retries > 0 ? ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})` : '';
    const resume = '`sopworks resume <project folder>` continues the run from this step.';
    const notACompletion = notACompletionMessage(error);
    if (notACompletion) {
      return new SopworksError('MODEL_ERROR', `${notACompletion} (during ${during})`, {
        hint: `Check OPENAI_BASE_URL (and any proxy in between); then ${resume}`,
        cause: error,
      });
    }
    if (status === 401 || status === 403) {
      return new SopworksError('MODEL_AUTH', `The model endpoint ${where} rejected the API key (${status}) during ${during}.`, {
        hint: 'Check OPENAI_API_KEY (in the environment or .env).',
        cause: error,
      });
    }
    if (status === 404 && this.settings.baseUrl && lacksV1(this.settings.baseUrl)) {
      return new SopworksError('MODEL_ERROR', `The model endpoint ${where} has no chat API at that address (404) during ${during}: ${message}`, {
        hint: `OpenAI-compatible servers serve their API under /v1: set OPENAI_BASE_URL=${where.replace(/\/+$/, '')}/v1; then ${resume}`,
        cause: error,
      });
    }
    if (status === 404) {
      return new SopworksError('MODEL_NOT_FOUND', `The model endpoint ${where} does not know model "${this.settings.model}" (404) during ${during}.`, {
        hint: 'Set SOPWORKS_MODEL or --model to a model the endpoint serves.',
        cause: error,
      });
    }
    if (isContextOverflow(error)) {
      return new SopworksError('MODEL_ERROR', `The model endpoint ${where} failed during ${during}: ${message}`, {
        hint:
          "The prompt is longer than the model's context window: choose a model with a larger context (SOPWORKS_MODEL), " +
          'or give a local server a larger one (Ollama: num_ctx; llama.cpp: --ctx-size; vLLM: --max-model-len); then ' +
          resume,
        cause: error,
      });
    }
    if (decision.retry && decision.reset && stop !== 'permanent') {
      return quotaError(where, during, decision.reason, serverText(error) ?? message, Date.now() + decision.retryAfterMs!, decision.reset, error);
    }
    if (stop === 'wait-too-long' && decision.retry) {
      return new SopworksError(
        'MODEL_ERROR',
        `The model endpoint ${where} asked to wait ${Math.ceil(decision.retryAfterMs! / 1000)} s before retrying (${decision.reason}) during ${during}, longer than SOPWORKS_RETRY_MAX_MS (${this.settings.retryMaxMs} ms)${after}.`,
        { hint: `Wait, then resume: ${resume} Or raise SOPWORKS_RETRY_MAX_MS to wait that long.`, cause: error },
      );
    }
    if (stop === 'exhausted') return this.exhausted(decision, error, during, retries, resume);
    if (status === 429) {
      return new SopworksError('MODEL_ERROR', `The model endpoint ${where} refused ${during}: ${decision.reason} (${message}).`, {
        hint: `Check the plan and billing of the account behind OPENAI_API_KEY; then ${resume}`,
        cause: error,
      });
    }
    return new SopworksError('MODEL_ERROR', `The model endpoint ${where} failed during ${during}${status ? ` (${status})` : ''}: ${message}${after}`, {
      cause: error,
    });
  }

  private exhausted(decision: RetryDecision, error: unknown, during: string, retries: number, resume: string): SopworksError {
    const attempts = `${retries + 1} attempts`;
    const status = (error as { status?: number }).status;
    if (status === undefined && /timed out/.test(decision.reason)) {
      return new SopworksError(
        'MODEL_UNREACHABLE',
        `The model endpoint ${this.where} did not answer ${during} within ${this.settings.timeoutMs} ms (${attempts}).`,
        {
          hint: `A local model can be slow: raise SOPWORKS_TIMEOUT_MS. ${resume}`,
          cause: error,
        },
      );
    }
    if (status === undefined && !refused(error)) {
      // It answered the connection: the server is there, but broke off each time.
      return new SopworksError(
        'MODEL_ERROR',
        `The model endpoint ${this.where} accepted the connection but closed it without an answer during ${during}: ${decision.reason} (${attempts}).`,
        {
          hint: `The server (or a proxy in between) may be crashing on this request: see its log; then ${resume}`,
          cause: error,
        },
      );
    }
    if (status === undefined) {
      return new SopworksError('MODEL_UNREACHABLE', `Cannot reach the model endpoint ${this.where} during ${during}: ${decision.reason} (${attempts}).`, {
        hint: `${reachHint(this.where, decision.reason)} Then ${resume}`,
        cause: error,
      });
    }
    const said = serverText(error);
    return new SopworksError(
      'MODEL_ERROR',
      `The model endpoint ${this.where} kept failing during ${during}: ${decision.reason} (${attempts})${said ? `; the server said: ${said}` : ''}.`,
      {
        hint: `${status === 429 ? 'The endpoint is rate-limiting: raise SOPWORKS_MAX_RETRIES or SOPWORKS_RETRY_BASE_MS to wait longer, or' : 'Wait for the endpoint to recover, or raise SOPWORKS_MAX_RETRIES; then'} ${resume}`,
        cause: error,
      },
    );
  }
}
