/** What the gateway needs from a model provider — nothing more. */
export interface CallMeta {
  role: string;
  action: string;
  /** Tells apart calls of one action, e.g. the file path of a per-file action. */
  key: string | null;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  call: CallMeta;
  messages: ChatMessage[];
  /** When set, the provider asks for JSON matching this schema where the endpoint supports it. */
  jsonSchema: { name: string; schema: Record<string, unknown> } | null;
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

export interface Provider {
  /** e.g. "openai:gpt-4o-mini" or "scripted:examples/wordfreq.yaml" — shown to the user. */
  readonly label: string;
  complete(request: CompletionRequest): Promise<Completion>;
  /** For providers that follow a script: skip what an earlier process of this run already used. */
  skipUsed?(used: Map<string, number>): void;
  /** How much a step may spend on replies cut off at the output limit; none: the provider never cuts off. */
  readonly cutOffLimits?: { perStep: number; perRequest: number };
}

export const describeCall = (call: CallMeta): string =>
  `{role: ${call.role}, action: ${call.action}, key: ${call.key ?? '(none)'}}`;
