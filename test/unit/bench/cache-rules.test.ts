/**
 * The prompt caches bench:cache imitates (bench/cache-rules.ts), each on requests made to show its rule:
 * what a request reads, what it writes, and what its tokens then cost.
 */
import assert from 'node:assert/strict';
import { blockRule, breakpointRule, CACHE_RULES, type CacheRequest, cacheFigures, prefixRule, slotRule, unitRule } from '../../../bench/cache-rules.ts';

const seq = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);

/** A request of blocks (each a token list), sent at `at` (s) and answered a second later. */
function request(
  blocks: number[][],
  at: number,
  { role = 'engineer', reply = [-3, 9, -9], stable = [] as number[], firstShown = null as CacheRequest['firstShown'] | null } = {},
): CacheRequest {
  const tokens = blocks.flat();
  const blockEnds = blocks.map((_, i) => blocks.slice(0, i + 1).flat().length);
  const shown = firstShown ?? { prompts: tokens.length, promptsAndReplies: tokens.length };
  return { role, tokens, blockEnds, stableEnds: stable, reply, sentAt: at * 1000, doneAt: at * 1000 + 1000, firstShown: shown };
}

const SYSTEM = seq(1_000_000, 100);
const DOCS = seq(2_000_000, 3000);
const reads = (rule: { serve(r: readonly CacheRequest[]): { read: number }[] }, requests: CacheRequest[]) => rule.serve(requests).map((s) => s.read);

describe('prompt cache rules', () => {
  const openai = prefixRule({ id: 'o', label: 'o', readFactor: 0.5, writeFactor: 1, min: 1024, step: 128, ttlMs: 300_000 });

  it("OpenAI's: the longest prefix an earlier request shares, from 1,024 tokens on, in steps of 128", () => {
    const first = request([SYSTEM, [...DOCS, ...seq(1, 50)]], 0);
    const second = request([SYSTEM, [...DOCS, ...seq(100, 50)]], 10);
    const short = request([SYSTEM, seq(5_000_000, 900)], 20);
    const shortAgain = request([SYSTEM, seq(5_000_000, 900), [7]], 30);
    // 100 + 3000 shared: 3,100 → 3,072 (24 steps of 128); 1,000 shared is under 1,024: nothing.
    assert.deepEqual(reads(openai, [first, second, short, shortAgain]), [0, 3072, 0, 0]);
  });

  it("OpenAI's: nothing from a request sent at the same moment, nor from one unused for longer than the cache keeps it", () => {
    const a = request([SYSTEM, DOCS, [1]], 0);
    const atOnce = request([SYSTEM, DOCS, [2]], 0);
    const late = request([SYSTEM, DOCS, [3]], 400);
    assert.deepEqual(reads(openai, [a, atOnce, late]), [0, 0, 0]);
    const kept = request([SYSTEM, DOCS, [4]], 200);
    const afterUse = request([SYSTEM, DOCS, [5]], 450);
    assert.deepEqual(reads(openai, [a, kept, afterUse]), [0, 3072, 3072], 'a hit keeps the prefix in the cache');
  });

  it("Anthropic's automatic caching writes each whole prompt at its last block and finds it again only at a block boundary", () => {
    const rule = breakpointRule({ id: 'a', label: 'a', readFactor: 0.1, writeFactor: 1.25, min: 1024, ttlMs: 300_000, lookback: 20, place: 'last' });
    const first = request([SYSTEM, [...DOCS, ...seq(1, 50)]], 0);
    const other = request([SYSTEM, [...DOCS, ...seq(100, 50)]], 10);
    const reask = request([SYSTEM, [...DOCS, ...seq(1, 50)], [-3, 8, -9], seq(200, 30)], 20);
    const served = rule.serve([first, other, reask]);
    assert.deepEqual(
      served.map((s) => [s.read, s.written]),
      [
        [0, 3150],
        [0, 3150],
        [3150, 33],
      ],
      'a prefix shared within a block is not found; the first request, continued, is',
    );
    const figures = cacheFigures(rule, [first, other, reask]);
    assert.equal(figures.effective, Math.round(3150 * 1.25 * 2 + 3150 * 0.1 + 33 * 1.25));
  });

  it("Anthropic's breakpoints at a prompt's stable parts let another step read them", () => {
    const rule = breakpointRule({ id: 'b', label: 'b', readFactor: 0.1, writeFactor: 1.25, min: 1024, ttlMs: 300_000, lookback: 20, place: 'stable' });
    const stable = [SYSTEM.length + DOCS.length];
    const first = request([SYSTEM, [...DOCS, ...seq(1, 50)]], 0, { stable });
    const other = request([SYSTEM, [...DOCS, ...seq(100, 50)]], 10, { stable });
    assert.deepEqual(
      rule.serve([first, other]).map((s) => [s.read, s.written]),
      [
        [0, 3150],
        [3100, 50],
      ],
    );
  });

  it("DeepSeek's: a request's ends are units at once, a prefix two requests share only from the third on", () => {
    const rule = unitRule({ id: 'd', label: 'd', readFactor: 0.1, writeFactor: 1 });
    const first = request([SYSTEM, [...DOCS, 1]], 0);
    const second = request([SYSTEM, [...DOCS, 2]], 10);
    const third = request([SYSTEM, [...DOCS, 3]], 20);
    const continued = request([SYSTEM, [...DOCS, 3], [-3, 9, -9], [4]], 30, { reply: [] });
    // The first two share 3,100 tokens and the second's ends are not the third's; the third's prompt and reply are the fourth's prefix.
    assert.deepEqual(reads(rule, [first, second, third, continued]), [0, 0, 3100, 3104]);
  });

  it("vLLM's: whole blocks of 16 tokens of any earlier prompt or reply, never the prompt's last token", () => {
    const rule = blockRule({ id: 'v', label: 'v', readFactor: 0, writeFactor: 1, block: 16 });
    const a = request([seq(1, 40)], 0);
    const b = request([[...seq(1, 37), 99]], 10);
    const same = request([seq(1, 32)], 20);
    assert.deepEqual(reads(rule, [a, b, same]), [0, 32, 16]);
  });

  it('a slot keeps only its last request: one slot for all roles loses what a sequence per role keeps', () => {
    const engineer = (n: number) => request([SYSTEM, [...DOCS, n]], n, { role: 'engineer' });
    const qa = (n: number) => request([seq(9_000_000, 100), [...DOCS, n]], n, { role: 'qa' });
    const requests = [engineer(1), qa(2), engineer(3), qa(4)];
    const one = slotRule({ id: 's', label: 's', readFactor: 0, writeFactor: 1, slots: 1 });
    const perRole = slotRule({ id: 'r', label: 'r', readFactor: 0, writeFactor: 1, slots: 'per role' });
    assert.deepEqual(reads(one, requests), [0, 0, 0, 0]);
    assert.deepEqual(reads(perRole, requests), [0, 0, 3100, 3100]);
  });

  it('every rule says what its tokens cost: none read is the prompt as it is, with writes at their price', () => {
    const lone = [request([SYSTEM, DOCS], 0)];
    for (const rule of CACHE_RULES) {
      const figures = cacheFigures(rule, lone);
      assert.equal(figures.read, 0, rule.id);
      assert.equal(figures.effective, Math.round(3100 + figures.written * (rule.writeFactor - 1)), rule.id);
    }
  });

  it('the floor reads every line an earlier request carried at the read factor, replies only where the rule keeps them', () => {
    const requests = [request([SYSTEM, DOCS], 0), request([SYSTEM, DOCS, seq(1, 400)], 10, { firstShown: { prompts: 400, promptsAndReplies: 100 } })];
    const openai = cacheFigures(CACHE_RULES.find((r) => r.id === 'openai-gpt-5')!, requests);
    // 3,100 + 400 shown first; the other 3,100 at 0.1×.
    assert.equal(openai.floor, Math.round(3500 + 3100 * 0.1));
    assert.ok(openai.floor <= openai.effective);
    const vllm = cacheFigures(CACHE_RULES.find((r) => r.id === 'vllm')!, requests);
    // A block cache keeps the first request's reply: 300 of the 400 were in it, and free.
    assert.equal(vllm.floor, 3200);
    assert.ok(vllm.floor <= vllm.effective);
  });
});
