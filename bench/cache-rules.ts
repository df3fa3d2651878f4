/**
 * How each provider's prompt cache would have served a run's requests, sent in the order and at the times
 * they were: for every request, the prompt tokens it would have read from the cache and those it would have
 * written to it (billed apart where the provider charges for writes). Pure: a rule is data (its factors and
 * where they come from, docs/performance.md "Prompt caches") and a function of the requests.
 *
 * Four ways a cache is kept, and the providers that keep each:
 * - any prefix of a request seen lately, from a minimum on, in steps (OpenAI's automatic caching, Gemini's
 *   implicit caching);
 * - prefixes written only where a request puts a breakpoint, found again at block boundaries
 *   (Anthropic's, automatic or with breakpoints);
 * - prefix units persisted at a request's ends and where requests were seen to share a prefix (DeepSeek's);
 * - blocks of tokens, or one server slot's last request (vLLM's automatic prefix caching, llama.cpp's server,
 *   sopworks' local engine), free but for memory.
 */

/** One request as a cache sees it: its prompt in tokens, where its blocks end, its reply, and when. */
export interface CacheRequest {
  /** The role that asked: the local engine's sequence per role. */
  role: string;
  /** The prompt's tokens (a message's role marker and end included). */
  tokens: readonly number[];
  /** Where the prompt's blocks end, increasing, the last at `tokens.length`: each message's end. */
  blockEnds: readonly number[];
  /** Where the prompt marks a stable part's end (none in a log that marks none): breakpoint candidates. */
  stableEnds: readonly number[];
  /** The reply as the assistant's message after the prompt: a slot, a block cache and DeepSeek keep it. */
  reply: readonly number[];
  /** When it was sent and answered (ms). */
  sentAt: number;
  doneAt: number;
  /**
   * Of its tokens, those in lines no earlier request carried — in its prompt, and in its prompt or reply:
   * what no cache can serve, however the prompts were laid out (`floor` in cacheFigures).
   */
  firstShown: { prompts: number; promptsAndReplies: number };
}

/** What a request read from the cache and what it wrote to it, in prompt tokens. */
export interface Served {
  read: number;
  written: number;
}

export interface CacheRule {
  id: string;
  /** The provider and its model or setup, as a table row names it. */
  label: string;
  /** A cached token's price as a share of an uncached one's; 0 for a server of one's own. */
  readFactor: number;
  /** A written token's price as a share of an uncached one's (1: writes cost nothing extra). */
  writeFactor: number;
  /** Whether it keeps a request's reply too, so that a later prompt can read it (a block cache, a slot, DeepSeek's units). */
  keepsReplies: boolean;
  serve(requests: readonly CacheRequest[]): Served[];
}

const MINUTE = 60_000;

/** The length of the prefix two token sequences share. */
export function sharedPrefix(a: readonly number[], b: readonly number[]): number {
  const max = Math.min(a.length, b.length);
  let n = 0;
  while (n < max && a[n] === b[n]) n++;
  return n;
}

/** A hash of every prefix of `tokens` (index k: the first k tokens), two 32-bit lanes joined. */
export function prefixHashes(tokens: readonly number[]): string[] {
  const hashes = ['0:0'];
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (const t of tokens) {
    a = (Math.imul(a ^ t, 0x01000193) + 0x9e3779b9) >>> 0;
    b = (Math.imul(b + t, 0x85ebca6b) ^ (b >>> 13)) >>> 0;
    hashes.push(`${a}:${b}`);
  }
  return hashes;
}

/**
 * Any prefix a recent request shares, served from `min` tokens on in steps of `step`, while the earlier
 * request was used within `ttlMs` (OpenAI, Gemini). An earlier request counts once it was sent.
 */
export function prefixRule(spec: Omit<CacheRule, 'serve' | 'keepsReplies'> & { min: number; step: number; ttlMs: number }): CacheRule {
  return {
    ...spec,
    keepsReplies: false,
    serve(requests) {
      const lastUse: number[] = [];
      return requests.map((request, i) => {
        let best = 0;
        let from = -1;
        for (let j = 0; j < i; j++) {
          const earlier = requests[j]!;
          if (earlier.sentAt >= request.sentAt || request.sentAt - lastUse[j]! > spec.ttlMs) continue;
          const shared = sharedPrefix(earlier.tokens, request.tokens);
          if (shared > best) [best, from] = [shared, j];
        }
        const read = best >= spec.min ? Math.floor(best / spec.step) * spec.step : 0;
        if (read > 0) lastUse[from] = request.sentAt;
        lastUse[i] = request.sentAt;
        return { read, written: 0 };
      });
    },
  };
}

/**
 * Prefixes written only at a request's breakpoints (`place`: its last block, or its stable parts' ends and
 * its last block, at most four), each of `min` tokens or more, kept `ttlMs` after their last use; a request
 * reads the longest written prefix that ends at one of its block boundaries, up to `lookback` blocks before
 * a breakpoint (Anthropic). What it writes past what it read is billed at the write factor.
 */
export function breakpointRule(
  spec: Omit<CacheRule, 'serve' | 'keepsReplies'> & { min: number; ttlMs: number; lookback: number; place: 'last' | 'stable' },
): CacheRule {
  return {
    ...spec,
    keepsReplies: false,
    serve(requests) {
      const written = new Map<string, number>();
      return requests.map((request) => {
        const hashes = prefixHashes(request.tokens);
        const ends = [...new Set([...request.blockEnds, ...request.stableEnds])].sort((a, b) => a - b);
        const points = breakpoints(request, ends, spec.place);
        let read = 0;
        for (const point of points) {
          const at = ends.indexOf(point);
          for (let k = at; k >= Math.max(0, at - spec.lookback + 1); k--) {
            const key = hashes[ends[k]!]!;
            const used = written.get(key);
            if (used !== undefined && request.sentAt - used <= spec.ttlMs && used <= request.sentAt) {
              read = Math.max(read, ends[k]!);
              break;
            }
          }
        }
        if (read > 0) written.set(hashes[read]!, request.sentAt);
        const writes = points.filter((p) => p >= spec.min && p > read);
        for (const p of writes) written.set(hashes[p]!, request.sentAt);
        return { read, written: writes.length > 0 ? Math.max(...writes) - read : 0 };
      });
    },
  };
}

/** Where a request puts its breakpoints: its last block's end — or its stable parts' ends first, at most four in all. */
function breakpoints(request: CacheRequest, ends: readonly number[], place: 'last' | 'stable'): number[] {
  const last = request.tokens.length;
  if (place === 'last') return [last];
  const stable = [ends[0]!, ...request.stableEnds].filter((p) => p < last);
  return [...new Set([...stable.slice(0, 3), last])];
}

/**
 * Prefix units: a request's input and its input with the reply, once answered, and the prefix it shares
 * with each request before it (detected, then persisted); a request reads the longest unit it contains
 * whole (DeepSeek).
 */
export function unitRule(spec: Omit<CacheRule, 'serve' | 'keepsReplies'>): CacheRule {
  return {
    ...spec,
    keepsReplies: true,
    serve(requests) {
      const units: { length: number; hash: string; from: number }[] = [];
      return requests.map((request, i) => {
        const hashes = prefixHashes(request.tokens);
        let read = 0;
        for (const unit of units) {
          if (unit.from <= request.sentAt && unit.length <= request.tokens.length && hashes[unit.length] === unit.hash) read = Math.max(read, unit.length);
        }
        const withReply = prefixHashes([...request.tokens, ...request.reply]);
        units.push({ length: request.tokens.length, hash: hashes.at(-1)!, from: request.doneAt });
        units.push({ length: withReply.length - 1, hash: withReply.at(-1)!, from: request.doneAt });
        for (let j = 0; j < i; j++) {
          const shared = sharedPrefix(requests[j]!.tokens, request.tokens);
          if (shared > 0) units.push({ length: shared, hash: hashes[shared]!, from: request.doneAt });
        }
        return { read, written: 0 };
      });
    },
  };
}

/**
 * Blocks of `block` tokens of any earlier request — its prompt once sent, its reply too once answered —
 * kept until memory runs short, which is not modelled (vLLM's automatic prefix caching). The last token of
 * a prompt is always computed.
 */
export function blockRule(spec: Omit<CacheRule, 'serve' | 'keepsReplies'> & { block: number }): CacheRule {
  return {
    ...spec,
    keepsReplies: true,
    serve(requests) {
      return requests.map((request, i) => {
        let best = 0;
        for (let j = 0; j < i; j++) {
          const earlier = requests[j]!;
          if (earlier.sentAt >= request.sentAt) continue;
          const seen = earlier.doneAt <= request.sentAt ? [...earlier.tokens, ...earlier.reply] : earlier.tokens;
          best = Math.max(best, sharedPrefix(seen, request.tokens));
        }
        const read = Math.floor(Math.min(best, request.tokens.length - 1) / spec.block) * spec.block;
        return { read: Math.max(0, read), written: 0 };
      });
    },
  };
}

/**
 * Slots that each keep their last request, prompt and reply: a request reads what it shares with its
 * slot's (llama.cpp's server: the idle slot sharing the most, else the one free first; the local engine:
 * one sequence, or one per role).
 */
export function slotRule(spec: Omit<CacheRule, 'serve' | 'keepsReplies'> & { slots: number | 'per role' }): CacheRule {
  return {
    ...spec,
    keepsReplies: true,
    serve(requests) {
      const slots = new Map<string, { tokens: readonly number[]; freeAt: number; usedAt: number }>();
      return requests.map((request) => {
        const name = spec.slots === 'per role' ? request.role : pickSlot(slots, request, spec.slots);
        const slot = slots.get(name);
        const read = slot ? Math.min(sharedPrefix(slot.tokens, request.tokens), request.tokens.length - 1) : 0;
        slots.set(name, { tokens: [...request.tokens, ...request.reply], freeAt: Math.max(request.doneAt, slot?.freeAt ?? 0), usedAt: request.sentAt });
        return { read: Math.max(0, read), written: 0 };
      });
    },
  };
}

function pickSlot(slots: Map<string, { tokens: readonly number[]; freeAt: number; usedAt: number }>, request: CacheRequest, count: number): string {
  const idle = [...slots.entries()].filter(([, s]) => s.freeAt <= request.sentAt);
  if (slots.size < count && !idle.some(([, s]) => sharedPrefix(s.tokens, request.tokens) > 0)) return `slot ${slots.size}`;
  if (idle.length > 0) {
    const ranked = idle
      .map(([name, s]) => ({ name, shared: sharedPrefix(s.tokens, request.tokens), usedAt: s.usedAt }))
      .sort((a, b) => b.shared - a.shared || a.usedAt - b.usedAt);
    return ranked[0]!.name;
  }
  return [...slots.entries()].sort(([, a], [, b]) => a.freeAt - b.freeAt)[0]![0];
}

/**
 * The providers measured, with their rules and factors (sources: docs/performance.md, "Prompt caches").
 * OpenAI's three rows differ only in the price of a cached token, which depends on the model.
 */
export const CACHE_RULES: readonly CacheRule[] = [
  ...(
    [
      ['gpt-4o', 0.5],
      ['gpt-4.1', 0.25],
      ['gpt-5', 0.1],
    ] as const
  ).map(([model, factor]) =>
    prefixRule({ id: `openai-${model}`, label: `OpenAI, ${model} (${factor}×)`, readFactor: factor, writeFactor: 1, min: 1024, step: 128, ttlMs: 5 * MINUTE }),
  ),
  breakpointRule({
    id: 'anthropic-automatic',
    label: 'Anthropic, automatic (0.1×, writes 1.25×)',
    readFactor: 0.1,
    writeFactor: 1.25,
    min: 1024,
    ttlMs: 5 * MINUTE,
    lookback: 20,
    place: 'last',
  }),
  breakpointRule({
    id: 'anthropic-breakpoints',
    label: 'Anthropic, breakpoints (0.1×, writes 1.25×)',
    readFactor: 0.1,
    writeFactor: 1.25,
    min: 1024,
    ttlMs: 5 * MINUTE,
    lookback: 20,
    place: 'stable',
  }),
  prefixRule({ id: 'gemini', label: 'Gemini 2.5, implicit (0.1×)', readFactor: 0.1, writeFactor: 1, min: 2048, step: 1, ttlMs: 5 * MINUTE }),
  unitRule({ id: 'deepseek', label: 'DeepSeek (0.26×)', readFactor: 0.26, writeFactor: 1 }),
  blockRule({ id: 'vllm', label: 'vLLM, blocks of 16 (free)', readFactor: 0, writeFactor: 1, block: 16 }),
  slotRule({ id: 'llama.cpp-1', label: "llama.cpp's server, 1 slot, or one sequence for all (free)", readFactor: 0, writeFactor: 1, slots: 1 }),
  slotRule({ id: 'llama.cpp-4', label: "llama.cpp's server, 4 slots (free)", readFactor: 0, writeFactor: 1, slots: 4 }),
  slotRule({ id: 'local-per-role', label: 'local engine, a sequence per role (free)', readFactor: 0, writeFactor: 1, slots: 'per role' }),
];

export interface CacheFigures {
  rule: string;
  label: string;
  promptTokens: number;
  read: number;
  written: number;
  /** Of the prompt tokens, the share read from the cache. */
  share: number;
  /** Uncached tokens + read × the read factor + written × the write factor. */
  effective: number;
  /**
   * The least any layout of the same prompts could cost under this rule: every line an earlier request
   * carried (its prompt, or its reply where the rule keeps replies) read at the read factor, wherever it
   * stands; only the lines shown for the first time uncached. Writes are not counted.
   */
  floor: number;
}

/** A rule's figures over a run's requests. */
export function cacheFigures(rule: CacheRule, requests: readonly CacheRequest[]): CacheFigures {
  const served = rule.serve(requests);
  const promptTokens = requests.reduce((n, r) => n + r.tokens.length, 0);
  const read = served.reduce((n, s) => n + s.read, 0);
  const written = served.reduce((n, s) => n + s.written, 0);
  const effective = promptTokens - read - written + read * rule.readFactor + written * rule.writeFactor;
  const firstShown = requests.reduce((n, r) => n + (rule.keepsReplies ? r.firstShown.promptsAndReplies : r.firstShown.prompts), 0);
  return {
    rule: rule.id,
    label: rule.label,
    promptTokens,
    read,
    written,
    share: promptTokens === 0 ? 0 : read / promptTokens,
    effective: Math.round(effective),
    floor: Math.round(firstShown + (promptTokens - firstShown) * rule.readFactor),
  };
}
