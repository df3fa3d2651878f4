/**
 * Rate limits shared through a real Redis: two limiters on one endpoint and model — as two workers
 * would hold them, each with its own connection — draw from one allowance of requests and tokens per
 * minute; a 429 that one worker's real OpenAI client meets (from a local endpoint) pauses the other
 * for as long as its Retry-After asks, and a quota's reset waited out (SOPWORKS_WAIT_FOR_QUOTA) until
 * then. Through real `sopworks worker` processes: a queued run that meets a quota waits for its reset and
 * goes on while the other worker of the endpoint asks nothing before it; without the setting its job
 * fails once, saying when the limit resets (issue 38, Must 9).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { jobIdFor, QUEUE_NAME, rateLimitKey, requestWindow, SharedRateLimits, workerRateLimits } from '../../src/apps/queue/index.ts';
import { createProvider, readSettings } from '../../src/capabilities/model/index.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../helpers/openai-server.ts';
import { startWorker, stopWorker, TEST_QUEUE_SECRET, type WorkerProcess, waitUntil } from '../helpers/queue-workers.ts';
import { startRedis, type TestRedis } from '../helpers/redis-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { REDIS, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

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
    await removeTempDirs();
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

  describe('a quota met by a queued run, through `sopworks worker` processes', function () {
    this.timeout(300_000);
    const PRD = JSON.stringify({
      projectName: 'todo',
      summary: 'A todo list.',
      goals: ['Track tasks'],
      userStories: [{ asA: 'user', iWant: 'to add tasks', soThat: 'I remember them' }],
      requirementPool: [{ id: 'R1', description: 'Add a task', priority: 'P0' }],
      acceptanceCriteria: ['Adding a task lists it'],
      openQuestions: [],
    });
    const FAST = { SOPWORKS_RETRY_BASE_MS: '10', SOPWORKS_RETRY_MAX_MS: '300', SOPWORKS_TIMEOUT_MS: '5000', SOPWORKS_MAX_RETRIES: '2' };
    const workers: WorkerProcess[] = [];
    const endpoints: FakeOpenAI[] = [];
    afterEach(async () => {
      await Promise.all(workers.splice(0).map(stopWorker));
      for (const endpoint of endpoints.splice(0)) await endpoint.close();
    });

    /** An endpoint whose first request meets `limit`, then answers the PM up to its PRD; when each request came. */
    const endpointLimitedOnce = async (limit: FakeReply) => {
      const times: number[] = [];
      const endpoint = await startFakeOpenAI({
        replies: (body) => {
          times.push(Date.now());
          if (times.length === 1) return limit;
          return { content: body.response_format?.json_schema?.name === 'PRD' ? PRD : JSON.stringify({ approved: true, issues: [] }) };
        },
      });
      endpoints.push(endpoint);
      return { endpoint, times };
    };
    const modelEnv = (endpoint: FakeOpenAI, more: Record<string, string> = {}) => ({
      OPENAI_BASE_URL: endpoint.url,
      OPENAI_API_KEY: 'sk-test',
      SOPWORKS_MODEL: 'test-model',
      SOPWORKS_REDIS_URL: redis.url,
      SOPWORKS_QUEUE_SECRET: TEST_QUEUE_SECRET,
      ...FAST,
      ...more,
    });
    const submitTodo = async (endpoint: FakeOpenAI, out: string, name: string) => {
      const submitted = await runCli(['submit', 'a todo list in the terminal', '--llm', 'openai', '--until', 'prd', '--out', out, '--name', name], {
        cwd: out,
        env: modelEnv(endpoint),
      });
      assert.equal(submitted.code, 0, submitted.stdout + submitted.stderr);
    };
    const jobOf = async (out: string, name: string) => {
      const queue = new Queue(QUEUE_NAME, { connection: { host: '127.0.0.1', port: redis.port } });
      try {
        for (;;) {
          const job = await queue.getJob(jobIdFor({ out, name }));
          const state = await job?.getState();
          if (job && (state === 'completed' || state === 'failed')) return { state, reason: job.failedReason ?? '', attempts: job.attemptsMade };
          await new Promise((r) => setTimeout(r, 200));
        }
      } finally {
        await queue.close();
      }
    };

    it('with SOPWORKS_WAIT_FOR_QUOTA, the run waits for the reset and goes on, and no other worker of the endpoint asks it anything before then', async () => {
      const { endpoint, times } = await endpointLimitedOnce({
        status: 429,
        // Long enough that the second run is submitted while the first still waits, however slow the machine:
        // at 4 s a loaded machine submitted it after the reset, and the first worker, free again, took both.
        error: { message: 'Rate limit reached for requests per day (RPD). Please try again in 20s.', code: 'rate_limit_exceeded' },
      });
      const out = await tempDir();
      // One run each: the second worker is the other worker of the endpoint.
      const env = modelEnv(endpoint, { SOPWORKS_WAIT_FOR_QUOTA: 'true' });
      const args = ['--runs-root', out, '--concurrency', '1'];
      workers.push(startWorker(redis.url, args, { env }), startWorker(redis.url, args, { env }));
      await Promise.all(workers.map((worker) => worker.waitFor(/^Worker /)));
      await submitTodo(endpoint, out, 'todo-first');
      // The first run waits for the reset; the second is submitted only then, for the other worker to take.
      const log = path.join(out, 'logs', 'todo-first.log');
      await waitUntil('the first run waits for the reset', async () => /paused until/.test(await fs.readFile(log, 'utf8').catch(() => '')));
      const reset = times[0]! + 20_000;
      await submitTodo(endpoint, out, 'todo-second');
      const [first, second] = await Promise.all([jobOf(out, 'todo-first'), jobOf(out, 'todo-second')]);
      assert.equal(first.state, 'completed', first.reason);
      assert.equal(second.state, 'completed', second.reason);
      const taken = workers.map((w) => w.lines.filter((l) => /todo-(first|second)\S*: starting/.test(l)).length);
      assert.deepEqual(taken.sort(), [1, 1], `each worker took one run: ${workers.map((w) => w.lines.join('\n')).join('\n---\n')}`);
      const early = times.slice(1).filter((t) => t < reset);
      assert.deepEqual(early, [], `no request before the reset (${reset - times[0]!} ms after the limit): ${times.map((t) => t - times[0]!).join(', ')}`);
      for (const name of ['todo-first', 'todo-second']) {
        const record = JSON.parse(await fs.readFile(path.join(out, name, '.sopworks', 'run.json'), 'utf8'));
        assert.equal(record.outcome, 'paused', record.reason);
        assert.equal(record.resumeAt, undefined, 'paused where --until asked, not at the limit');
        assert.match(await fs.readFile(path.join(out, name, 'docs', 'prd.md'), 'utf8'), /A todo list\./);
      }
    });

    it('without it, the job fails once, saying when the limit resets and how to go on; nothing is asked again', async () => {
      const { endpoint, times } = await endpointLimitedOnce({
        status: 429,
        error: { message: 'Rate limit reached for requests', code: 'rate_limit_exceeded' },
        headers: { 'x-ratelimit-reset-requests': '10m0s', 'x-ratelimit-remaining-requests': '0' },
      });
      const out = await tempDir();
      workers.push(startWorker(redis.url, ['--runs-root', out], { env: modelEnv(endpoint) }));
      await submitTodo(endpoint, out, 'todo-limited');
      const job = await jobOf(out, 'todo-limited');
      assert.equal(job.state, 'failed');
      assert.equal(job.attempts, 1, 'not retried: a retry would ask before the reset');
      // A reset past midnight UTC is said with its date ("it resets at 2026-11-28 00:00:48 UTC").
      assert.match(job.reason, /paused at its endpoint's limit: .*it resets at (?:\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d UTC/);
      assert.match(job.reason, /sopworks resume \S+todo-limited continues it.*SOPWORKS_WAIT_FOR_QUOTA=true/);
      const record = JSON.parse(await fs.readFile(path.join(out, 'todo-limited', '.sopworks', 'run.json'), 'utf8'));
      assert.equal(record.outcome, 'paused');
      assert.ok(Math.abs(Date.parse(record.resumeAt) - (times[0]! + 600_000)) < 30_000, record.resumeAt);
      assert.equal(times.length, 1, 'the endpoint was asked once');
    });
  });
});
