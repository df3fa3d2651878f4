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
}

export interface Provider {
  /** e.g. "openai:gpt-4o-mini" or "scripted:examples/wordfreq.yaml" — shown to the user. */
  readonly label: string;
  complete(request: CompletionRequest): Promise<Completion>;
}

export const describeCall = (call: CallMeta): string =>
  `{role: ${call.role}, action: ${call.action}, key: ${call.key ?? '(none)'}}`;
