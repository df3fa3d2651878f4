/**
 * Faults real endpoints produce, injected by the local OpenAI-compatible server, through the real
 * ChatOpenAI client, the openai provider and the gateway: 429 with and without Retry-After, 5xx, a
 * timeout, a connection reset mid-response, a reply cut off at the output limit, and an endpoint that
 * rejects structured output. Each is retried, continued or worked around — bounded, and counted — or
 * ends in an error that says what happened and what to do.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  CONTINUE_PROMPT,
  createOpenAIProvider,
  Gateway,
  PromptRenderer,
  type RetryEvent,
  readSettings,
  UsageMeter,
} from '../../src/capabilities/model/index.ts';
import { markdownRenderers } from '../../src/company/index.ts';
import { PRD } from '../../src/documents/index.ts';
import { loadRoleProfile } from '../../src/engine/roles/index.ts';
import { SopworksError } from '../../src/ground/errors.ts';
import { AppendLog, readAppendLog } from '../../src/ground/files/index.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../helpers/openai-server.ts';
import { ROLES } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const validPrd = {
  projectName: 'todo',
  summary: 'A todo list.',
  goals: ['Track tasks'],
  userStories: [{ asA: 'user', iWant: 'to add tasks', soThat: 'I remember them' }],
  requirementPool: [{ id: 'R1', description: 'Add a task', priority: 'P0' }],
  acceptanceCriteria: ['Adding a task lists it'],
  openQuestions: [],
};
const prdText = JSON.stringify(validPrd, null, 2);
const source = 'export function add(tasks, task) {\n  return [...tasks, task];\n}\n\nexport function list(tasks) {\n  return tasks.join("\\n");\n}\n';
const codeText = '```js\n' + source + '```';

/** Fast bounds for tests: 10 ms first backoff, 300 ms per request. */
const FAST = { SOPWORKS_RETRY_BASE_MS: '10', SOPWORKS_RETRY_MAX_MS: '2000', SOPWORKS_TIMEOUT_MS: '300', SOPWORKS_MAX_RETRIES: '2' };

async function setup(server: FakeOpenAI, env: Record<string, string> = {}) {
  const settings = readSettings({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test', SOPWORKS_MODEL: 'test-model', ...FAST, ...env });
  const notices: string[] = [];
  const retries: RetryEvent[] = [];
  const provider = await createOpenAIProvider(settings.model, { onNotice: (m) => notices.push(m), onRetry: (_call, e) => retries.push(e) });
  const meter = new UsageMeter();
  const logFile = path.join(await tempDir(), 'exchanges.jsonl');
  const exchanges = await AppendLog.open(logFile, { flush: 'each' });
  openLogs.push(exchanges);
  const roles = await stepTemplatesOfOneLine();
  const gateway = new Gateway({ provider, renderer: new PromptRenderer(roles, markdownRenderers), meter, exchanges, maxRepairs: settings.maxRepairs });
  const pm = await loadRoleProfile(roles, 'product-manager');
  const engineer = await loadRoleProfile(roles, 'engineer');
  let occurrence = 0;
  const askPrd = () =>
    gateway.ask({
      call: { role: 'product-manager', action: 'write_prd', key: null },
      profile: pm,
      variables: { spec: 'a todo list in the terminal' },
      output: { kind: 'json', name: 'PRD', schema: PRD },
      occurrence: occurrence++,
    });
  const askCode = () =>
    gateway.ask({
      call: { role: 'engineer', action: 'write_file', key: 'src/todo.js' },
      profile: engineer,
      variables: { spec: 'src/todo.js: add and list tasks' },
      output: { kind: 'code', path: 'src/todo.js' },
      occurrence: 0,
    });
  const attempts = async () => {
    openLogs.splice(openLogs.indexOf(exchanges), 1);
    await exchanges.close();
    return (await readAppendLog(logFile)).records as { attempt: number; retries: number; finishReason: string | null; ok: boolean; error: string | null }[];
  };
  return { provider, meter, notices, retries, askPrd, askCode, attempts };
}

/**
 * The real shared templates (system prompt, output formats, re-ask) and role profiles, with one-line
 * step templates: these tests are about the transport, and the real steps' variables follow the SOPs.
 */
async function stepTemplatesOfOneLine(): Promise<string> {
  const dir = await tempDir();
  await fs.cp(path.join(ROLES, '_shared'), path.join(dir, '_shared'), { recursive: true });
  for (const [role, action] of [
    ['product-manager', 'write_prd'],
    ['engineer', 'write_file'],
  ] as const) {
    await fs.mkdir(path.join(dir, role));
    await fs.copyFile(path.join(ROLES, role, 'role.yaml'), path.join(dir, role, 'role.yaml'));
    await fs.writeFile(path.join(dir, role, `${action}.hbs`), 'Write this:\n\n> {{spec}}\n');
  }
  return dir;
}

/** Exchange logs still open at the end of a test, closed after it. */
const openLogs: AppendLog[] = [];

const expectFailure = async (promise: Promise<unknown>, check: (error: SopworksError) => void) => {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(SopworksError.isInstance(error), `a SopworksError, not ${String(error)}`);
    check(error);
    return true;
  });
};

describe('provider faults against a local OpenAI-compatible server', function () {
  this.timeout(30_000);
  let server: FakeOpenAI | null = null;
  const start = async (replies: FakeReply[]) => (server = await startFakeOpenAI({ replies }));
  afterEach(async () => {
    for (const log of openLogs.splice(0)) await log.close();
    await server?.close();
    server = null;
  });
  after(removeTempDirs);

  describe('transient faults are retried with backoff, and each retry is counted', () => {
    it('retries a 429 without Retry-After (which LangChain alone would not) after a backoff of its own', async () => {
      const s = await start([{ status: 429 }, { content: prdText }]);
      const { askPrd, retries, meter, attempts } = await setup(s);
      assert.deepEqual(await askPrd(), validPrd);
      assert.equal(s.chatRequests().length, 2);
      assert.equal(retries.length, 1);
      assert.equal(retries[0]!.reason, '429 rate limited');
      assert.equal(retries[0]!.asked, false);
      assert.ok(retries[0]!.waitMs >= 5 && retries[0]!.waitMs <= 10, `first backoff between half and all of SOPWORKS_RETRY_BASE_MS: ${retries[0]!.waitMs}`);
      assert.equal(meter.records[0]!.retries, 1);
      assert.deepEqual(
        (await attempts()).map((a) => [a.attempt, a.retries, a.ok]),
        [[1, 1, true]],
      );
    });

    it('waits what Retry-After (seconds) or retry-after-ms asks, instead of its own backoff', async () => {
      const s = await start([{ status: 429, headers: { 'retry-after': '0' } }, { status: 429, headers: { 'retry-after-ms': '30' } }, { content: prdText }]);
      const { askPrd, retries, meter } = await setup(s);
      assert.deepEqual(await askPrd(), validPrd);
      assert.deepEqual(
        retries.map((r) => [r.retry, r.waitMs, r.asked]),
        [
          [1, 0, true],
          [2, 30, true],
        ],
      );
      assert.equal(meter.records[0]!.retries, 2);
    });

    for (const status of [500, 502, 503]) {
      it(`retries a ${status}`, async () => {
        const s = await start([{ status }, { content: prdText }]);
        const { askPrd, retries } = await setup(s);
        assert.deepEqual(await askPrd(), validPrd);
        assert.deepEqual(
          retries.map((r) => r.reason),
          [`${status} from the endpoint`],
        );
        assert.equal(s.chatRequests().length, 2);
      });
    }

    it('retries a request that takes longer than SOPWORKS_TIMEOUT_MS', async () => {
      const s = await start([{ delayMs: 10_000, content: prdText }, { content: prdText }]);
      const { askPrd, retries } = await setup(s);
      assert.deepEqual(await askPrd(), validPrd);
      assert.deepEqual(
        retries.map((r) => r.reason),
        ['the request timed out'],
      );
    });

    it('retries a connection reset in the middle of the response', async () => {
      const s = await start([{ resetMidResponse: true, content: prdText }, { content: prdText }]);
      const { askPrd, retries } = await setup(s);
      assert.deepEqual(await askPrd(), validPrd);
      assert.equal(retries.length, 1);
      assert.match(retries[0]!.reason, /^the connection failed/);
    });

    it('stops after SOPWORKS_MAX_RETRIES with an error that says what failed and how to go on', async () => {
      const s = await start([{ status: 503 }, { status: 503 }, { status: 503 }, { content: prdText }]);
      const { askPrd, retries } = await setup(s);
      await expectFailure(askPrd(), (error) => {
        assert.equal(error.code, 'MODEL_ERROR');
        assert.match(error.message, /kept failing during \{role: product-manager, action: write_prd, key: \(none\)\}: 503 from the endpoint \(3 attempts\)/);
        assert.match(error.hint ?? '', /sopworks resume/);
      });
      assert.equal(s.chatRequests().length, 3, 'one request and two retries, no more');
      assert.equal(retries.length, 2);
    });

    it('says a timeout is a timeout, and which setting gives the model longer', async () => {
      const s = await start([{ delayMs: 10_000 }, { delayMs: 10_000 }]);
      const { askPrd } = await setup(s, { SOPWORKS_MAX_RETRIES: '1' });
      await expectFailure(askPrd(), (error) => {
        assert.equal(error.code, 'MODEL_UNREACHABLE');
        assert.match(error.message, /did not answer .* within 300 ms \(2 attempts\)/);
        assert.match(error.hint ?? '', /SOPWORKS_TIMEOUT_MS/);
      });
    });

    it('does not wait a Retry-After longer than SOPWORKS_RETRY_MAX_MS: it stops at once, saying when to resume', async () => {
      const s = await start([{ status: 429, headers: { 'retry-after': '120' } }, { content: prdText }]);
      const { askPrd } = await setup(s);
      const asked = Date.now();
      await expectFailure(askPrd(), (error) => {
        assert.equal(error.code, 'MODEL_QUOTA');
        assert.match(error.message, /is at its limit during .* it resets at \d\d:\d\d:\d\d UTC \(in 2 min\) — by the retry-after header/);
        assert.ok(Math.abs(Date.parse(error.resumeAt!) - (asked + 120_000)) < 5000, error.resumeAt);
        assert.match(error.hint ?? '', /sopworks resume/);
      });
      assert.equal(s.chatRequests().length, 1);
    });

    it('does not retry what would fail the same way: a 400, or a 429 for a used-up quota', async () => {
      const s = await start([
        { status: 400, error: { message: "This model's maximum context length is 8192 tokens.", type: 'invalid_request_error' } },
        { status: 429, error: { message: 'You exceeded your current quota, please check your plan and billing details.', code: 'insufficient_quota' } },
      ]);
      const { askPrd, retries } = await setup(s);
      await expectFailure(askPrd(), (error) => {
        assert.match(error.message, /failed during .*: 400 This model's maximum context length is 8192 tokens/);
        assert.match(error.hint ?? '', /larger context/);
      });
      await expectFailure(askPrd(), (error) => {
        assert.match(error.message, /429: the quota is used up/);
        assert.match(error.hint ?? '', /billing/);
      });
      assert.equal(s.chatRequests().length, 2);
      assert.deepEqual(retries, []);
    });
  });

  describe('a reply cut off at the output limit (finish_reason: length) is continued', () => {
    it('asks for the rest of a code file and appends it, bounded', async () => {
      const cut = codeText.indexOf('export function list');
      const s = await start([
        { content: codeText.slice(0, cut), finishReason: 'length', usage: { prompt_tokens: 100, completion_tokens: 40 } },
        { content: codeText.slice(cut), usage: { prompt_tokens: 150, completion_tokens: 30 } },
      ]);
      const { askCode, meter, attempts } = await setup(s);
      assert.deepEqual(await askCode(), { path: 'src/todo.js', content: source });
      const [first, second] = s.chatRequests();
      const sent = second!.body.messages as { role: string; content: string }[];
      assert.deepEqual(sent.slice(0, -2), first!.body.messages, 'the continuation repeats the conversation');
      assert.deepEqual(sent.slice(-2), [
        { role: 'assistant', content: codeText.slice(0, cut) },
        { role: 'user', content: CONTINUE_PROMPT },
      ]);
      assert.deepEqual(meter.records[0]!.promptTokens, 250, 'usage covers both requests');
      assert.deepEqual(meter.records[0]!.completionTokens, 70);
      const [attempt] = await attempts();
      assert.equal(attempt!.finishReason, 'stop');
      assert.equal(attempt!.ok, true);
    });

    it('continues JSON without response_format (a fragment is not a whole object)', async () => {
      const s = await start([{ content: prdText.slice(0, 90), finishReason: 'length' }, { content: prdText.slice(90) }]);
      const { askPrd } = await setup(s, { SOPWORKS_STRUCTURED_OUTPUT: 'json_object' });
      assert.deepEqual(await askPrd(), validPrd);
      const [first, second] = s.chatRequests();
      assert.equal(first!.body.response_format.type, 'json_object');
      assert.equal(second!.body.response_format, undefined);
    });

    it('under json_schema, where the SDK withholds a cut-off text, sends that request again without response_format and continues it', async () => {
      const s = await start([
        { content: prdText.slice(0, 90), finishReason: 'length' },
        { content: prdText.slice(0, 90), finishReason: 'length' },
        { content: prdText.slice(90) },
      ]);
      const { askPrd, meter } = await setup(s);
      assert.deepEqual(await askPrd(), validPrd);
      assert.deepEqual(
        s.chatRequests().map((r) => [r.body.response_format?.type ?? null, r.body.messages.length]),
        [
          ['json_schema', 2],
          [null, 2],
          [null, 4],
        ],
      );
      assert.equal(meter.records[0]!.retries, 1);
    });

    it('hands a reply still cut off after SOPWORKS_MAX_CONTINUATIONS to the gateway, which re-asks saying it was cut off', async () => {
      const s = await start([
        { content: prdText.slice(0, 40), finishReason: 'length' },
        { content: prdText.slice(40, 80), finishReason: 'length' },
        { content: prdText },
      ]);
      const { askPrd, attempts } = await setup(s, { SOPWORKS_STRUCTURED_OUTPUT: 'off', SOPWORKS_MAX_CONTINUATIONS: '1' });
      assert.deepEqual(await askPrd(), validPrd);
      const log = await attempts();
      assert.deepEqual(
        log.map((a) => [a.attempt, a.finishReason, a.ok]),
        [
          [1, 'length', false],
          [2, 'stop', true],
        ],
      );
      // Cut off is cut off, however the part that came parses: the re-ask says so.
      assert.match(log[0]!.error!, /cut off at the output limit/);
      assert.match(s.chatRequests()[2]!.body.messages.at(-1).content, /cut off at the output limit \(finish_reason: length\)/);
    });
  });

  describe('an endpoint without structured output (Must 7)', () => {
    const rejection = {
      status: 400,
      error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", type: 'invalid_request_error' },
    };

    it('falls back to the format described in the prompt for the rest of the run, says so once, and the reply is repaired', async () => {
      const s = await start([rejection, { content: 'Here is the PRD:\n```json\n' + prdText + '\n```' }, { content: `{'PRD': ${prdText}}` }]);
      const { provider, askPrd, notices } = await setup(s);
      assert.deepEqual(await askPrd(), validPrd);
      assert.deepEqual(await askPrd(), validPrd);
      const sent = s.chatRequests();
      assert.deepEqual(
        sent.map((r) => r.body.response_format?.type ?? null),
        ['json_schema', null, null],
      );
      assert.match(sent[1]!.body.messages[1].content, /must match this JSON Schema/, 'the prompt still describes the schema');
      assert.equal(notices.length, 1);
      assert.match(notices[0]!, /rejected structured output \(response_format json_schema: 400 Invalid parameter: 'response_format'/);
      assert.match(notices[0]!, /SOPWORKS_STRUCTURED_OUTPUT=off/);
      assert.equal(provider.structuredOutputMode, 'off');
    });

    it('falls back from json_object too (LM Studio accepts only json_schema or text)', async () => {
      const s = await start([{ status: 400, error: { message: "'response_format.type' must be 'json_schema' or 'text'" } }, { content: prdText }]);
      const { askPrd, notices } = await setup(s, { SOPWORKS_STRUCTURED_OUTPUT: 'json_object' });
      assert.deepEqual(await askPrd(), validPrd);
      assert.deepEqual(
        s.chatRequests().map((r) => r.body.response_format?.type ?? null),
        ['json_object', null],
      );
      assert.equal(notices.length, 1);
    });

    it('takes the answer from reasoning_content when the server left the content empty', async () => {
      const s = await start([{ content: '', reasoningContent: prdText }]);
      const { askPrd } = await setup(s);
      assert.deepEqual(await askPrd(), validPrd);
      assert.equal(s.chatRequests().length, 1);
    });

    it('re-asks an OpenAI refusal (no content, a `refusal`) quoting it, not as an empty reply', async () => {
      const s = await start([{ refusal: "I'm sorry, I can't help with that." }, { content: prdText }]);
      const { askPrd } = await setup(s);
      assert.deepEqual(await askPrd(), validPrd);
      const reask = s.chatRequests()[1]!.body.messages;
      // The re-ask is one user message under the first prompt: the refusal is quoted as the reply that was rejected.
      const last = reask.at(-1).content as string;
      assert.equal(reask.at(-1).role, 'user');
      assert.match(last, /It was:\n~+\nI'm sorry, I can't help with that\.\n~+/, 'the refusal is the answer the model is shown');
      assert.match(last, /declined the task \("I'm sorry, I can't help with that\."\).*routine software-engineering step/);
      assert.doesNotMatch(last, /empty/);
    });

    it('keeps structured output for a 400 that is about something else', async () => {
      const s = await start([{ status: 400, error: { message: 'messages: too many messages' } }, { content: prdText }]);
      const { provider, askPrd, notices } = await setup(s);
      await expectFailure(askPrd(), (error) => assert.match(error.message, /\(400\): 400 messages: too many messages/));
      assert.deepEqual(notices, []);
      assert.equal(provider.structuredOutputMode, 'json_schema');
      assert.equal(s.chatRequests().length, 1);
    });
  });
});
