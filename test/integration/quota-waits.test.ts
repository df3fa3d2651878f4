/**
 * A rate limit or a quota that says when it resets, staged by the local OpenAI-compatible server in each
 * shape real endpoints and proxies use, through the real ChatOpenAI client: the call stops saying when to
 * resume (the run ends `paused`, exit 5, run.json's `resumeAt`), or — with SOPWORKS_WAIT_FOR_QUOTA — waits
 * for the reset, says so, and goes on.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createOpenAIProvider, type QuotaWait, readSettings } from '../../src/capabilities/model/index.ts';
import { SopworksError } from '../../src/ground/errors.ts';
import { sopworks } from '../helpers/in-process.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../helpers/openai-server.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const FAST = { SOPWORKS_RETRY_BASE_MS: '10', SOPWORKS_RETRY_MAX_MS: '300', SOPWORKS_TIMEOUT_MS: '5000', SOPWORKS_MAX_RETRIES: '2' };
const limited = (message: string, headers: Record<string, string> = {}, more: Record<string, unknown> = {}): FakeReply => ({
  status: 429,
  error: { message, code: 'rate_limit_exceeded', type: 'requests', ...more },
  headers,
});

/** The shapes, each with when its limit resets (from the moment it is sent) and who says so. */
const SHAPES: { shape: string; reply: (now: number) => FakeReply; resetsIn: (now: number) => number; source: RegExp }[] = [
  {
    shape: 'Retry-After in seconds',
    reply: () => limited('Rate limit reached', { 'retry-after': '600' }),
    resetsIn: () => 600_000,
    source: /retry-after header/,
  },
  {
    shape: "OpenAI's x-ratelimit-reset-requests, the limit that ran out",
    reply: () =>
      limited('Rate limit reached for requests', {
        'x-ratelimit-reset-requests': '6m0s',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-tokens': '1s',
        'x-ratelimit-remaining-tokens': '9000',
      }),
    resetsIn: () => 360_000,
    source: /x-ratelimit-reset-requests header/,
  },
  {
    shape: "a proxy's x-ratelimit-reset in epoch milliseconds (OpenRouter)",
    reply: (now) => limited('Rate limit exceeded: free-models-per-day', { 'x-ratelimit-reset': String(now + 3_600_000) }),
    resetsIn: () => 3_600_000,
    source: /x-ratelimit-reset header/,
  },
  {
    shape: "OpenAI's words for a daily limit: try again in 7m12s",
    reply: () => limited('Rate limit reached for gpt-4o-mini on requests per day (RPD): Limit 200, Used 200, Requested 1. Please try again in 7m12s.'),
    resetsIn: () => 432_000,
    source: /error message/,
  },
  {
    shape: "Google's RetryInfo in the body (its OpenAI-compatible endpoint)",
    reply: () => limited('You exceeded your current quota.', {}, { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '52s' }] }),
    resetsIn: () => 52_000,
    source: /error message/,
  },
  {
    shape: 'a body naming the time it resets',
    reply: (now) => limited(`Quota exceeded; it resets at ${new Date(now + 7_200_000).toISOString()}.`),
    resetsIn: () => 7_200_000,
    source: /error message/,
  },
  {
    shape: 'a daily limit that names no time: the next midnight UTC',
    reply: () => limited('You have reached your daily limit of requests for this model.'),
    resetsIn: (now) => Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate() + 1) - now,
    source: /daily limit, no time given \(midnight UTC assumed\)/,
  },
];

describe('a limit that says when it resets: the run waits instead of failing', function () {
  this.timeout(60_000);
  const servers: FakeOpenAI[] = [];
  const serve = async (replies: FakeReply[] | ((body: any) => FakeReply)) => {
    const server = await startFakeOpenAI({ replies });
    servers.push(server);
    return server;
  };
  after(async () => {
    for (const server of servers) await server.close();
    await removeTempDirs();
  });

  const provider = async (server: FakeOpenAI, env: Record<string, string> = {}) => {
    const settings = readSettings({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test', SOPWORKS_MODEL: 'test-model', ...FAST, ...env });
    const notices: string[] = [];
    const waits: QuotaWait[] = [];
    const made = await createOpenAIProvider(settings.model, { onNotice: (n) => notices.push(n), onQuotaWait: (_call, w) => waits.push(w) });
    const ask = () =>
      made.complete({ call: { role: 'product-manager', action: 'write_prd', key: null }, messages: [{ role: 'user', content: 'hi' }], jsonSchema: null });
    return { ask, notices, waits };
  };

  for (const { shape, reply, resetsIn, source } of SHAPES) {
    it(`${shape}: stops the call at once, saying when to resume`, async () => {
      // Built when the request comes, as a server would: its times are from that moment.
      let sent = 0;
      const server = await serve(() => (sent === 0 ? reply((sent = Date.now())) : { content: 'too early' }));
      const { ask } = await provider(server);
      await assert.rejects(ask(), (error: unknown) => {
        assert.ok(SopworksError.isInstance(error), String(error));
        assert.equal(error.code, 'MODEL_QUOTA', error.message);
        const expected = sent + resetsIn(sent);
        assert.ok(Math.abs(Date.parse(error.resumeAt!) - expected) < 3000, `resumeAt ${error.resumeAt}, expected about ${new Date(expected).toISOString()}`);
        assert.match(error.message, /is at its limit during \{role: product-manager, action: write_prd, key: \(none\)\}/);
        assert.match(error.message, new RegExp(`it resets at .*UTC \\(in [^)]+\\) — by .*${source.source}`));
        assert.match(error.hint ?? '', /sopworks resume <project folder>.*SOPWORKS_WAIT_FOR_QUOTA=true/);
        return true;
      });
      assert.equal(server.chatRequests().length, 1, 'no request is sent before the reset');
    });
  }

  it('with SOPWORKS_WAIT_FOR_QUOTA, waits for the reset, says so, and goes on', async () => {
    const server = await serve([
      limited('Rate limit reached for tokens', { 'x-ratelimit-reset-tokens': '1.5s', 'x-ratelimit-remaining-tokens': '0' }),
      { content: 'after the reset' },
    ]);
    const { ask, notices, waits } = await provider(server, { SOPWORKS_WAIT_FOR_QUOTA: 'true' });
    const started = Date.now();
    const completion = await ask();
    assert.equal(completion.text, 'after the reset');
    assert.ok(Date.now() - started >= 1500, `waited ${Date.now() - started} ms`);
    assert.equal(server.chatRequests().length, 2);
    assert.equal(waits.length, 1);
    assert.ok(Math.abs(waits[0]!.until - (started + 2500)) < 1000, 'until the reset, a second past it');
    assert.match(
      notices.join('\n'),
      /is at its limit .*: paused until \d\d:\d\d:\d\d UTC \(in \d s\) — by the x-ratelimit-reset-tokens header, as SOPWORKS_WAIT_FOR_QUOTA asks/,
    );
    assert.equal(completion.retries, 1, 'the request after the wait is counted');
  });

  it('with SOPWORKS_WAIT_FOR_QUOTA, a reset more than a day away is not waited for', async () => {
    const server = await serve([limited('Monthly quota reached', { 'retry-after': String(40 * 86_400) })]);
    const { ask, waits } = await provider(server, { SOPWORKS_WAIT_FOR_QUOTA: 'true' });
    await assert.rejects(ask(), (error: unknown) => SopworksError.isInstance(error) && error.code === 'MODEL_QUOTA');
    assert.deepEqual(waits, []);
  });

  describe('a whole run, from the command line', () => {
    const PRD = JSON.stringify({
      projectName: 'todo',
      summary: 'A todo list.',
      goals: ['Track tasks'],
      userStories: [{ asA: 'user', iWant: 'to add tasks', soThat: 'I remember them' }],
      requirementPool: [{ id: 'R1', description: 'Add a task', priority: 'P0' }],
      acceptanceCriteria: ['Adding a task lists it'],
      openQuestions: [],
    });
    /** The PM's calls up to the PRD (write, then a self-review that approves), the first one answered `first`. */
    const pm = (first: FakeReply) => {
      let calls = 0;
      return (body: any): FakeReply => {
        calls++;
        if (calls === 1) return first;
        return { content: body.response_format?.json_schema?.name === 'PRD' ? PRD : JSON.stringify({ approved: true, issues: [] }) };
      };
    };
    const run = async (server: FakeOpenAI, out: string, env: Record<string, string> = {}) =>
      sopworks(['run', 'a todo list in the terminal', '--until', 'prd', '--out', out, '--name', 'todo'], {
        cwd: out,
        env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test', SOPWORKS_MODEL: 'test-model', ...FAST, ...env },
      });

    it('ends paused (exit 5), saying when the limit resets and how to go on; run.json keeps when', async () => {
      const server = await serve(
        pm(limited('Rate limit reached for requests', { 'x-ratelimit-reset-requests': '6m0s', 'x-ratelimit-remaining-requests': '0' })),
      );
      const out = await tempDir();
      const started = Date.now();
      const result = await run(server, out);
      const ended = Date.now();
      assert.equal(result.code, 5, result.stdout + result.stderr);
      assert.match(result.stdout, /paused/);
      assert.match(result.stdout, /it resets at \d\d:\d\d:\d\d UTC \(in 6 min\) — by the x-ratelimit-reset-requests header/);
      assert.match(result.stdout, /Paused at the endpoint's limit\. Go on after \S+ with: sopworks resume/);
      const record = JSON.parse(await fs.readFile(path.join(out, 'todo', '.sopworks', 'run.json'), 'utf8'));
      assert.equal(record.outcome, 'paused');
      // Six minutes after the 429, which came while the run was under way (however long its start took here).
      const resumeAt = Date.parse(record.resumeAt);
      assert.ok(resumeAt >= started + 360_000 - 1000 && resumeAt <= ended + 360_000 + 1000, `${record.resumeAt}: 6 min after a moment of the run`);
    });

    it('with SOPWORKS_WAIT_FOR_QUOTA, says it is paused until the reset, then goes on to the PRD', async () => {
      const server = await serve(pm(limited('Rate limit reached for requests', { 'retry-after': '2' })));
      const out = await tempDir();
      const started = Date.now();
      const result = await run(server, out, { SOPWORKS_WAIT_FOR_QUOTA: 'true' });
      assert.equal(result.code, 5, result.stdout + result.stderr);
      assert.match(result.stdout, /notice: The model endpoint .* is at its limit .*: paused until \d\d:\d\d:\d\d UTC \(in 3 s\)/);
      assert.match(result.stdout, /Stopped early, as asked/, 'stopped at --until prd, not at the limit');
      assert.ok(Date.now() - started >= 3000);
      const record = JSON.parse(await fs.readFile(path.join(out, 'todo', '.sopworks', 'run.json'), 'utf8'));
      assert.equal(record.resumeAt, undefined);
      assert.match(await fs.readFile(path.join(out, 'todo', 'docs', 'prd.md'), 'utf8'), /A todo list\./);
    });
  });
});
