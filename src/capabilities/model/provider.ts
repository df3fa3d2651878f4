/** What the gateway needs from a model provider — nothing more. */
import type { z } from 'zod';
import type { CallMeta } from '../../engine/steps/ports.ts';

export type { CallMeta };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  call: CallMeta;
  messages: ChatMessage[];
  /** When set, the provider asks for JSON matching this schema where the endpoint supports it. */
  jsonSchema: { name: string; schema: Record<string, unknown> } | null;
  /** The reply's expected shape, for providers that constrain generation to it (the local engine's grammars). */
  output?: { kind: 'json'; schema: z.ZodType } | { kind: 'code'; path: string } | { kind: 'files' } | { kind: 'edits'; path: string };
  signal?: AbortSignal;
  /** Completion tokens this request's continuations may spend, at most (cut-off-allowance.ts); none: no bound. */
  continuationTokens?: number;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
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
}

/** One model a role may be answered by, with what the gateway needs to meter it. */
export interface ModelRoute {
  /** e.g. "openai:gpt-4o at http://localhost:8000/v1" — in progress lines, the exchange log and usage. */
  label: string;
  provider: Provider;
  /** Its price in US dollars per million tokens; null when unknown. */
  price: import('./prices.ts').Price | null;
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
  /** How much a step may spend on replies cut off at the output limit; none: the provider never cuts off. */
  readonly cutOffLimits?: { perStep: number; perRequest: number };
}

export const describeCall = (call: CallMeta): string => `{role: ${call.role}, action: ${call.action}, key: ${call.key ?? '(none)'}}`;
