/**
 * A run's exchange log as the requests a prompt cache saw (cache-rules.ts): each attempt's messages in
 * tokens (the bundled tokenizer, OpenAI's o200k), in the order they were sent. A message is its role's
 * marker, its content and an end marker, as chat templates frame it, so a prompt's blocks end where its
 * messages do; the reply follows as the assistant's message a re-ask or a slot would carry.
 */
import { encode } from 'gpt-tokenizer';
import type { ExchangeRecord } from '../src/capabilities/model/exchange-record.ts';
import type { CacheRequest } from './cache-rules.ts';

interface Message {
  role: string;
  content: string;
}

/** The markers of a message's start, by role, and of its end: numbers no text encodes to. */
const MARKERS: Record<string, number> = { system: -1, user: -2, assistant: -3 };
const END = -9;

/** One request as sent: who asked, its messages and the reply, when (ms). */
export interface SentRequest {
  role: string;
  messages: readonly Message[];
  reply: string;
  sentAt: number;
  doneAt: number;
}

/** The requests in tokens, sorted by when they were sent (a stable sort keeps the given order for those sent at once). */
export function cacheRequestsOf(sent: readonly SentRequest[]): CacheRequest[] {
  const encoded = new Map<string, number[]>();
  const tokensOf = (message: Message): number[] => {
    const key = `${message.role}\u0000${message.content}`;
    let tokens = encoded.get(key);
    if (!tokens) {
      tokens = [MARKERS[message.role] ?? -4, ...encode(message.content), END];
      encoded.set(key, tokens);
    }
    return tokens;
  };
  const firstShown = lastingLines();
  return [...sent]
    .sort((a, b) => a.sentAt - b.sentAt)
    .map((request) => {
      const tokens: number[] = [];
      const blockEnds: number[] = [];
      for (const message of request.messages) {
        tokens.push(...tokensOf(message));
        blockEnds.push(tokens.length);
      }
      const reply = tokensOf({ role: 'assistant', content: request.reply });
      const shown = firstShown(request, tokens.length);
      return { role: request.role, tokens, blockEnds, stableEnds: [], reply, sentAt: request.sentAt, doneAt: request.doneAt, firstShown: shown };
    });
}

/**
 * The tokens of a request's lines that no earlier request carried, given the requests in the order sent:
 * in an earlier prompt, and in an earlier prompt or a reply received before it was sent. Counted by line
 * (each line's tokens with its line break), so a line repeated anywhere counts as carried.
 */
function lastingLines(): (request: SentRequest, length: number) => CacheRequest['firstShown'] {
  const prompted = new Set<string>();
  const replied: { line: string; at: number }[] = [];
  const lineTokens = new Map<string, number>();
  const count = (line: string): number => {
    let n = lineTokens.get(line);
    if (n === undefined) {
      n = encode(`${line}\n`).length;
      lineTokens.set(line, n);
    }
    return n;
  };
  const answered = new Set<string>();
  return (request, length) => {
    for (const { line, at } of replied.splice(0)) {
      if (at <= request.sentAt) answered.add(line);
      else replied.push({ line, at });
    }
    let prompts = 0;
    let promptsAndReplies = 0;
    const lines = request.messages.flatMap((m) => m.content.split('\n'));
    for (const line of lines) {
      if (prompted.has(line)) continue;
      prompts += count(line);
      if (!answered.has(line)) promptsAndReplies += count(line);
    }
    for (const line of lines) prompted.add(line);
    for (const line of request.reply.split('\n')) replied.push({ line, at: request.doneAt });
    return { prompts: Math.min(prompts, length), promptsAndReplies: Math.min(promptsAndReplies, length) };
  };
}

/** The attempts of an exchange log that reached a model, as requests. */
export function cacheRequests(records: readonly ExchangeRecord[]): CacheRequest[] {
  return cacheRequestsOf(
    records
      .filter((r) => Array.isArray(r.messages) && r.unavailable === undefined)
      .map((record) => {
        const sentAt = typeof record.at === 'string' ? Date.parse(record.at) : 0;
        return { role: record.role, messages: record.messages as Message[], reply: record.reply, sentAt, doneAt: sentAt + record.ms };
      }),
  );
}
