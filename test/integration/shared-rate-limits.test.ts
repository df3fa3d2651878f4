/**
 * Rate limits shared through a real Redis: two limiters on one endpoint and model — as two workers
 * would hold them, each with its own connection — draw from one allowance of requests and tokens per
 * minute; and a 429 that one worker's real OpenAI client meets (from a local endpoint) pauses the other
 * for as long as its Retry-After asks.
 */
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { rateLimitKey, requestWindow, SharedRateLimits, workerRateLimits } from '../../src/apps/queue/index.ts';
import { createProvider, readSettings } from '../../src/capabilities/model/index.ts';
import { startFakeOpenAI } from '../helpers/openai-server.ts';
import { startRedis, type TestRedis } from '../helpers/redis-server.ts';
import { REDIS, requireSystem } from '../helpers/system-requirements.ts';

describe('shared rate limits on a real Redis', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  const clients: Redis[] = [];
  const connect = () => {
    const client = new Redis(redis.url);
    clients.push(client);
    return client;
  };

  before(async function () {
    requireSystem(this, REDIS);
    redis = await startRedis();
  });
  after(async () => {
    clients.forEach((c) => c.disconnect());
    await redis?.stop();
  });

  it('spreads requests per minute over short windows', () => {
    assert.deepEqual(requestWindow(600), { seconds: 1, requests: 10 });
    assert.deepEqual(requestWindow(90), { seconds: 2, requests: 3 });
    assert.deepEqual(requestWindow(7), { seconds: 60, requests: 7 });
  });

  it('two workers share one allowance of requests per minute', async () => {
    const a = new SharedRateLimits(connect(), 'endpoint-a|model', { rpm: 120, tpm: null });
    const b = new SharedRateLimits(connect(), 'endpoint-a|model', { rpm: 120, tpm: null });
    const started = Date.now();
    const times: number[] = [];
    // 2 requests per second between them: 6 requests take three windows, whoever asks.
    await Promise.all([a, b, a, b, a, b].map((limits) => limits.acquire(0).then(() => times.push(Date.now() - started))));
    times.sort((x, y) => x - y);
    assert.ok(times[1]! < 900, `the first two go at once: ${times}`);
    assert.ok(times[2]! >= 900 && times[4]! >= 1900, `the rest wait for the next windows: ${times}`);
    assert.ok(a.waits + b.waits >= 4);
  });

  it("counts the tokens of one worker's replies against the other's requests", async () => {
    const a = new SharedRateLimits(connect(), 'endpoint-t|model', { rpm: null, tpm: 1000 });
    const b = new SharedRateLimits(connect(), 'endpoint-t|model', { rpm: null, tpm: 1000 });
    await a.acquire(600);
    await a.settle(300); // the reply's completion tokens
    await b.acquire(50); // 950 of 1000: still allowed
    await assert.rejects(b.acquire(100, AbortSignal.timeout(500)), { name: 'AbortError' }, "over the minute's tokens: waits");
  });

  it('a 429 one worker meets pauses every worker as long as its Retry-After asks', async () => {
    const endpoint = await startFakeOpenAI({
      replies: [{ status: 429, error: { message: 'Rate limit reached for requests' }, headers: { 'retry-after': '2' } }, { content: 'hello' }],
    });
    try {
      const settings = readSettings({ OPENAI_BASE_URL: `${endpoint.url}/v1`, OPENAI_API_KEY: 'sk-test', SOPWORKS_MODEL: 'm', SOPWORKS_RETRY_MAX_MS: '5000' });
      const limits = workerRateLimits(connect(), settings, { rpm: 6000, tpm: null });
      const provider = await createProvider({ kind: 'openai' }, null, settings, undefined, limits!.provider);
      const other = new SharedRateLimits(connect(), rateLimitKey(settings), { rpm: 6000, tpm: null });
      const call = provider.complete({ call: { role: 'r', action: 'a', key: null }, messages: [{ role: 'user', content: 'hi' }], jsonSchema: null });
      while (endpoint.chatRequests().length < 1) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 150));
      const waited = Date.now();
      await other.acquire(0);
      assert.ok(Date.now() - waited >= 1500, `the other worker waited ${Date.now() - waited} ms`);
      assert.equal((await call).text, 'hello');
      assert.equal(endpoint.chatRequests().length, 2, 'one retry, no storm');
    } finally {
      await endpoint.close();
    }
  });

  it("a quota's reset one worker waits out (SOPWORKS_WAIT_FOR_QUOTA) pauses every worker of that endpoint until then, with no limit set", async () => {
    const endpoint = await startFakeOpenAI({
      replies: [{ status: 429, error: { message: 'Rate limit reached for requests per day (RPD). Please try again in 3s.' } }, { content: 'after the reset' }],
    });
    try {
      const settings = readSettings({
        OPENAI_BASE_URL: endpoint.url,
        OPENAI_API_KEY: 'sk-test',
        SOPWORKS_MODEL: 'quota-model',
        SOPWORKS_RETRY_MAX_MS: '500',
        SOPWORKS_WAIT_FOR_QUOTA: 'true',
      });
      const limits = workerRateLimits(connect(), settings, { rpm: null, tpm: null });
      assert.ok(limits, 'made for the reset alone');
      const provider = await createProvider({ kind: 'openai' }, null, settings, undefined, { ...limits.provider, onNotice: () => {} });
      const other = new SharedRateLimits(connect(), rateLimitKey(settings), { rpm: null, tpm: null });
      const asked = Date.now();
      const call = provider.complete({ call: { role: 'r', action: 'a', key: null }, messages: [{ role: 'user', content: 'hi' }], jsonSchema: null });
      while (endpoint.chatRequests().length < 1) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      const until = await other.pausedUntil();
      assert.ok(until !== null && until >= asked + 3000, `the other worker sees the pause until the reset: ${until === null ? 'none' : until - asked}`);
      await other.acquire(0);
      assert.ok(Date.now() - asked >= 3000, `the other worker waited until the reset: ${Date.now() - asked} ms`);
      assert.equal((await call).text, 'after the reset');
      assert.equal(endpoint.chatRequests().length, 2, 'nothing was sent before the reset');
    } finally {
      await endpoint.close();
    }
  });
});
