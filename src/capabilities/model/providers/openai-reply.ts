/** What is read from a chat completion LangChain hands back: its text and its usage. */
import type { initChatModel } from 'langchain';
import { z } from 'zod';
import type { Usage } from '../provider.ts';

type ChatModel = Awaited<ReturnType<typeof initChatModel>>;
export type Reply = Awaited<ReturnType<ChatModel['invoke']>>;

/**
 * The reply's text. Some servers put a reasoning model's whole answer in `reasoning_content` and leave
 * the content empty (LM Studio with json_schema and Qwen 3.5, for one); then that is what there is to
 * parse — unless the reply was cut off, when it is reasoning that never reached an answer. OpenAI
 * declines under structured output with a `refusal` and no content: the refusal is the text, so the
 * re-ask quotes it and says the task is routine (parse/refusal.ts) instead of calling the reply empty.
 */
export function textOf(reply: Reply, finishReason: string | null): string {
  const content = typeof reply.content === 'string' ? reply.content : reply.content.map((part) => ('text' in part ? part.text : '')).join('');
  if (content.trim() !== '') return content;
  const refusal = RawReply.safeParse(reply.additional_kwargs?.__raw_response).data?.choices[0]?.message.refusal;
  if (refusal) return refusal;
  const reasoning = reply.additional_kwargs?.reasoning_content;
  return finishReason !== 'length' && typeof reasoning === 'string' ? reasoning : content;
}

/** The part of the server's raw reply that LangChain leaves out and we read. */
const RawReply = z.object({ choices: z.array(z.object({ message: z.object({ refusal: z.string().nullish() }) })) });

export function usageOf(reply: Reply): Usage | null {
  const usage = reply.usage_metadata;
  // LangChain leaves the counts undefined (or 0) when the server sent no usage; then the gateway counts.
  if (!usage?.input_tokens || usage.output_tokens === undefined) return null;
  // `prompt_tokens_details.cached_tokens` (OpenAI, vLLM, llama.cpp's server), as LangChain carries it, or
  // DeepSeek's own `prompt_cache_hit_tokens`, which it does not; a server that says 0 said something.
  const cached = usage.input_token_details?.cache_read ?? RawUsage.safeParse(reply.additional_kwargs?.__raw_response).data?.usage.prompt_cache_hit_tokens;
  return { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens, ...(typeof cached === 'number' ? { cachedPromptTokens: cached } : {}) };
}

/** DeepSeek's count of the prompt tokens its context cache served, in the raw reply's usage. */
const RawUsage = z.object({ usage: z.object({ prompt_cache_hit_tokens: z.number().int().min(0) }) });

/** Cached tokens over a reply's requests: said when any request said them. */
export const addCached = (a: number | undefined, b: number | undefined) =>
  a === undefined && b === undefined ? {} : { cachedPromptTokens: (a ?? 0) + (b ?? 0) };
