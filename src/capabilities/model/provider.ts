/** What the gateway needs from a model provider — nothing more. */
import type { z } from 'zod';
import type { CallMeta } from '../../engine/steps/index.ts';
import type { ExchangeRecord } from './exchange-record.ts';
import type { Price } from './prices.ts';
import type { SchemaCaps } from './schema-caps.ts';

export type { CallMeta };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The reply's expected shape, as a provider sees it. */
export type ReplyShape = { kind: 'json'; schema: z.ZodType } | { kind: 'code'; path: string } | { kind: 'files' } | { kind: 'edits'; path: string };

export interface CompletionRequest {
  call: CallMeta;
  messages: ChatMessage[];
  /** When set, the provider asks for JSON matching this schema where the endpoint supports it. */
  jsonSchema: { name: string; schema: Record<string, unknown> } | null;
  /** The reply's expected shape, for providers that constrain generation to it (the local engine's grammars). */
  output?: ReplyShape;
  signal?: AbortSignal;
  /** Completion tokens this request's continuations may spend, at most (cut-off-allowance.ts); none: no bound. */
  continuationTokens?: number;
  /**
   * Which call this request is — the n-th of its series (0-based) — and which attempt of it (1 for the
   * first ask, more for a re-ask): set by the gateway, read by providers that follow a script.
   */
  occurrence?: number;
  attempt?: number;
  /** Told how the request goes, as often as the provider knows (each token, for the local engine). */
  onProgress?: (progress: CallProgress) => void;
  /** The run's and the role's key for a provider's prompt cache (OpenAI's prompt_cache_key), where the provider sends one. */
  cacheKey?: string;
}

/**
 * A fault a provider put into its answer on purpose (`--chaos`, chaos/chaos-provider.ts), recorded with
 * the exchange so that every figure of a chaos run can be traced to its cause.
 */
export interface InjectedFault {
  /** The class of fault, e.g. `trailing-commas`, `cut-off`, `rate-limit-429` (chaos/fault-classes.ts). */
  fault: string;
  /** What the gateway must make of it: take it as the same answer, re-ask, or have the transport retry it. */
  expect: 'accepted' | 'reasked' | 'retried';
}

/**
 * How a request goes: `reading` its prompt (`promptTokens` of it, the part a cache could not serve),
 * `writing` the reply (`tokens` so far), or `waiting` for a server that tells nothing until it answers.
 */
export interface CallProgress {
  phase: 'reading' | 'writing' | 'waiting';
  tokens: number;
  promptTokens?: number;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /**
   * Of the prompt tokens, those served from a cache instead of read again: a server's prefix cache
   * (`prompt_tokens_details.cached_tokens`, DeepSeek's `prompt_cache_hit_tokens`), the local engine's
   * reused state. Absent: the provider did not say (0: it said none).
   */
  cachedPromptTokens?: number;
}

export interface Completion {
  text: string;
  /** From the provider; null when it reported none (the gateway then counts tokens itself). */
  usage: Usage | null;
  finishReason: string | null;
  /** Transport retries the provider made for this completion (429, 5xx, timeouts). */
  retries?: number;
  /**
   * Follow-up requests that continued a reply cut off at the output limit; `text` is the whole reply and
   * `usage` covers every request. A reply still cut off when they ran out has finishReason "length".
   */
  continuations?: number;
  /** A fault injected into this answer on purpose (chaos runs only). */
  injected?: InjectedFault;
  /** The answer to a re-ask after an injected fault: the script's reply again, none of the script used up. */
  reusedReply?: boolean;
}

/** One model a role may be answered by, with what the gateway needs to meter it. */
export interface ModelRoute {
  /** e.g. "openai:gpt-4o at http://localhost:8000/v1" — in progress lines, the exchange log and usage. */
  label: string;
  provider: Provider;
  /** Its price in US dollars per million tokens; null when unknown. */
  price: Price | null;
  /** The largest reply one call may produce with it (the budget check assumes it). */
  maxOutputTokens: number;
}

export interface Provider {
  /** e.g. "openai:gpt-4o-mini" or "scripted:examples/wordfreq.yaml" — shown to the user. */
  readonly label: string;
  complete(request: CompletionRequest): Promise<Completion>;
  /**
   * The models that answer a role, in order: the first, then the fallbacks asked when a call fails in a
   * way the same model cannot fix (src/capabilities/model/fallback-reason.ts). A provider without it is one model for all.
   */
  chainFor?(role: string): readonly ModelRoute[];
  /** For providers that follow a script: skip what an earlier process of this run already used. */
  skipUsed?(used: Map<string, number>): void;
  /** For providers that keep state across a call's attempts: pick it up from an earlier process's exchanges. */
  resumeFrom?(records: readonly ExchangeRecord[]): void;
  /** How much a step may spend on replies cut off at the output limit; none: the provider never cuts off. */
  readonly cutOffLimits?: { perStep: number; perRequest: number };
  /**
   * The model's context window in tokens, when known (the local engine's context; a server's, when it
   * reports one or SOPWORKS_CONTEXT_WINDOW says): every request's prompt plus `replyAllowance` must fit it.
   */
  readonly contextWindow?: number;
  /** The tokens one request keeps for its reply (its output limit); none: the route's maxOutputTokens. */
  readonly replyAllowance?: number;
  /** The same for a request of this shape, when it differs by shape (a reply of files continued further). */
  replyAllowanceFor?(output: ReplyShape): number;
  /**
   * The tokens one request may produce (its max_tokens), when a reply cut off there is continued by further
   * requests up to the allowance above; none: a reply is one request's, up to the allowance.
   */
  readonly outputLimit?: number;
  /** Caps a planned run puts on strings and lists whose schema sets none (schema-caps.ts); the prompt states them. */
  readonly schemaCaps?: SchemaCaps | null;
  /** A prompt's length in the model's own tokens; none: the bundled tokenizer's count (token-count.ts). */
  countPromptTokens?(messages: readonly ChatMessage[]): number;
  /** A text's length in the model's own tokens; none: the bundled tokenizer's count. */
  countTextTokens?(text: string): number;
}

export const describeCall = (call: CallMeta): string => `{role: ${call.role}, action: ${call.action}, key: ${call.key ?? '(none)'}}`;
