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
  const requests = sent.map((request) => {
    const tokens: number[] = [];
    const blockEnds: number[] = [];
    for (const message of request.messages) {
      tokens.push(...tokensOf(message));
      blockEnds.push(tokens.length);
    }
    const reply = tokensOf({ role: 'assistant', content: request.reply });
    return { role: request.role, tokens, blockEnds, stableEnds: [], reply, sentAt: request.sentAt, doneAt: request.doneAt };
  });
  return requests.sort((a, b) => a.sentAt - b.sentAt);
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
