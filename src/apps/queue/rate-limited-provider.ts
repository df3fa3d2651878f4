/**
 * A provider that asks the shared rate limits before each request and reports what the reply used:
 * the wrapper a worker puts around every provider (provider-middleware.ts). Retries inside the
 * provider are requests too; a 429 among them pauses every worker (see worker-rate-limits.ts).
 */
import { type Completion, type CompletionRequest, countPromptTokens, countTextTokens, type Provider } from '../../capabilities/model/index.ts';
import type { SharedRateLimits } from './rate-limits.ts';

export class RateLimitedProvider implements Provider {
  readonly label: string;

  constructor(
    private readonly inner: Provider,
    private readonly limits: SharedRateLimits,
  ) {
    this.label = inner.label;
    // Only when the wrapped provider has it: without it, a request's allowance is one route's (context-fit.ts).
    const perShape = inner.replyAllowanceFor?.bind(inner);
    if (perShape) this.replyAllowanceFor = perShape;
  }

  /** A reply's allowance per shape, the wrapped provider's (a reply of files continued further). */
  readonly replyAllowanceFor?: Provider['replyAllowanceFor'];

  async complete(request: CompletionRequest): Promise<Completion> {
    const promptTokens = this.limits.settings.tpm === null ? 0 : countPromptTokens(request.messages);
    await this.limits.acquire(promptTokens, request.signal);
    const completion = await this.inner.complete(request);
    const used = completion.usage ? completion.usage.promptTokens + completion.usage.completionTokens : promptTokens;
    await this.limits.settle(used - promptTokens);
    return completion;
  }

  /** The step's cut-off allowance is the wrapped provider's (cut-off-allowance.ts). */
  get cutOffLimits() {
    return this.inner.cutOffLimits;
  }

  /** The model's window and counts are the wrapped provider's: the gateway checks each request against them. */
  get contextWindow() {
    return this.inner.contextWindow;
  }

  get replyAllowance() {
    return this.inner.replyAllowance;
  }

  /** The caps a planned run puts in the schema it sends: the prompt states them, so they are the wrapped provider's too. */
  get schemaCaps() {
    return this.inner.schemaCaps;
  }

  get outputLimit() {
    return this.inner.outputLimit;
  }

  countPromptTokens(messages: CompletionRequest['messages']): number {
    return this.inner.countPromptTokens?.(messages) ?? countPromptTokens(messages);
  }

  countTextTokens(text: string): number {
    return this.inner.countTextTokens?.(text) ?? countTextTokens(text);
  }

  skipUsed(used: Map<string, number>): void {
    this.inner.skipUsed?.(used);
  }

  resumeFrom(records: Parameters<NonNullable<Provider['resumeFrom']>>[0]): void {
    this.inner.resumeFrom?.(records);
  }
}
