/**
 * The real ChatOpenAI client (through the openai provider and the gateway) against a local
 * OpenAI-compatible server: what is sent, usage recorded from the server, an invalid reply re-asked,
 * transport faults retried, and errors that say what to fix.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createOpenAIProvider, Gateway, PromptRenderer, readSettings, UsageMeter } from '../../src/capabilities/model/index.ts';
import { markdownRenderers } from '../../src/company/index.ts';
import { PRD } from '../../src/documents/index.ts';
import { loadRoleProfile } from '../../src/engine/roles/index.ts';
import { SopworksError } from '../../src/ground/errors.ts';
import { AppendLog, readAppendLog } from '../../src/ground/files/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/openai-server.ts';
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

async function gatewayFor(server: FakeOpenAI, env: Record<string, string> = {}) {
  const settings = readSettings({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test', SOPWORKS_MODEL: 'test-model', ...env });
  const provider = await createOpenAIProvider(settings.model);
  const meter = new UsageMeter();
  const logFile = path.join(await tempDir(), 'exchanges.jsonl');
  const exchanges = await AppendLog.open(logFile, { flush: 'each' });
  const price = settings.price ?? { inputPerMTok: 1, outputPerMTok: 2 };
  const gateway = new Gateway({ provider, renderer: new PromptRenderer(ROLES, markdownRenderers), meter, exchanges, maxRepairs: settings.maxRepairs, price });
  const profile = await loadRoleProfile(ROLES, 'product-manager');
  const askPrd = () =>
    gateway.ask({
      call: { role: 'product-manager', action: 'write_prd', key: null },
      profile,
      variables: { spec: 'a todo list in the terminal' },
      output: { kind: 'json', name: 'PRD', schema: PRD },
      occurrence: 0,
    });
  return { gateway, meter, exchanges, logFile, askPrd };
}

describe('the openai provider against a local OpenAI-compatible server', function () {
  this.timeout(30_000);
  let server: FakeOpenAI | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });
  after(removeTempDirs);

  it('sends the rendered prompt with a strict JSON schema, records usage, and re-asks an invalid reply', async () => {
    server = await startFakeOpenAI({
      apiKey: 'sk-test',
      replies: [
        { content: JSON.stringify({ ...validPrd, goals: [] }), usage: { prompt_tokens: 300, completion_tokens: 40 } },
        { content: JSON.stringify(validPrd), usage: { prompt_tokens: 380, completion_tokens: 60 } },
      ],
    });
    const { meter, exchanges, logFile, askPrd } = await gatewayFor(server);
    const prd = await askPrd();
    await exchanges.close();

    assert.deepEqual(prd, validPrd);
    const [first, second] = server.chatRequests();
    assert.equal(server.chatRequests().length, 2);
    assert.equal(first!.body.model, 'test-model');
    assert.deepEqual(
      first!.body.messages.map((m: { role: string }) => m.role),
      ['system', 'user'],
    );
    assert.match(first!.body.messages[1].content, /You are Alice, the Product Manager\./);
    assert.match(first!.body.messages[1].content, /> a todo list in the terminal/);
    assert.equal(first!.body.response_format.type, 'json_schema');
    assert.equal(first!.body.response_format.json_schema.name, 'PRD');
    assert.equal(first!.body.response_format.json_schema.strict, true);
    assert.equal(first!.body.response_format.json_schema.schema.additionalProperties, false);
    assert.deepEqual(first!.body.response_format.json_schema.schema.required, Object.keys(validPrd));

    // A server (not OpenAI's own API) gets every constraint the schema states: it makes them a grammar.
    const sent = first!.body.response_format.json_schema.schema;
    assert.equal(sent.properties.goals.minItems, 1);
    assert.equal(sent.properties.summary.minLength, 1);
    assert.deepEqual(sent.properties.requirementPool.items.properties.priority.enum, ['P0', 'P1', 'P2']);

    // The re-ask is the request with the validation error and the bad reply appended.
    assert.deepEqual(
      second!.body.messages.map((m: { role: string }) => m.role),
      ['system', 'user'],
    );
    assert.ok(second!.body.messages[1].content.startsWith(first!.body.messages[1].content.trimEnd()));
    assert.match(second!.body.messages[1].content, /goals: Too small: expected array to have >=1 items/);
    assert.match(second!.body.messages[1].content, /"goals":\[\]/);

    // 680 prompt tokens at $1/M and 100 completion tokens at $2/M.
    assert.deepEqual(meter.total(), {
      calls: 1,
      promptTokens: 680,
      completionTokens: 100,
      cachedPromptTokens: 0,
      cacheReportedTokens: 0,
      repairs: 1,
      retries: 0,
      costUsd: 0.00088,
    });
    assert.equal(meter.records[0]!.counted, false);
    const { records } = await readAppendLog(logFile);
    assert.deepEqual(
      records.map((r) => (r as { attempt: number; ok: boolean }).ok),
      [false, true],
    );
  });

  it('counts the prompt tokens the server says its prefix cache served, and prices them as cached input', async () => {
    server = await startFakeOpenAI({
      replies: [
        {
          content: JSON.stringify({ ...validPrd, goals: [] }),
          usage: { prompt_tokens: 2000, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 0 } },
        },
        { content: JSON.stringify(validPrd), usage: { prompt_tokens: 2100, completion_tokens: 60, prompt_tokens_details: { cached_tokens: 1920 } } },
      ],
    });
    const { meter, exchanges, logFile, askPrd } = await gatewayFor(server, {
      SOPWORKS_PRICE_INPUT: '1',
      SOPWORKS_PRICE_OUTPUT: '2',
      SOPWORKS_PRICE_CACHED_INPUT: '0.1',
    });
    await askPrd();
    await exchanges.close();
    assert.equal(meter.total().cachedPromptTokens, 1920);
    assert.equal(meter.total().promptTokens, 4100);
    assert.equal(meter.total().cacheReportedTokens, 4100, 'both requests said what the cache served, the first none');
    const { records } = await readAppendLog(logFile);
    assert.deepEqual(
      records.map((r) => (r as { usage: { cachedPromptTokens?: number } }).usage.cachedPromptTokens ?? 0),
      [0, 1920],
    );
    // $1/M for input read, $0.1/M for input the cache served, $2/M for output.
    assert.ok(Math.abs(meter.total().costUsd! - ((4100 - 1920) * 1 + 1920 * 0.1 + 100 * 2) / 1e6) < 1e-12);
  });

  it("reads DeepSeek's count of the prompt tokens its cache served", async () => {
    server = await startFakeOpenAI({
      replies: [{ content: JSON.stringify(validPrd), usage: { prompt_tokens: 3000, completion_tokens: 60, prompt_cache_hit_tokens: 2944 } }],
    });
    const { meter, exchanges, askPrd } = await gatewayFor(server);
    await askPrd();
    await exchanges.close();
    assert.equal(meter.total().cachedPromptTokens, 2944);
    assert.equal(meter.total().cacheReportedTokens, 3000);
  });

  it('hands a reply wrapped in prose to the gateway to repair, without a second request', async () => {
    server = await startFakeOpenAI({ replies: [{ content: 'Here is the PRD:\n```json\n' + JSON.stringify(validPrd) + '\n```' }] });
    const { exchanges, askPrd } = await gatewayFor(server);
    assert.deepEqual(await askPrd(), validPrd);
    await exchanges.close();
    assert.equal(server.chatRequests().length, 1, 'the SDK did not reject the reply and no retry was paid for');
  });

  it('counts tokens with the bundled tokenizer when the server reports no usage', async () => {
    server = await startFakeOpenAI({ replies: [{ content: JSON.stringify(validPrd), usage: null }] });
    const { meter, exchanges, askPrd } = await gatewayFor(server);
    await askPrd();
    await exchanges.close();
    const record = meter.records[0]!;
    assert.equal(record.counted, true);
    assert.ok(record.promptTokens > 100, `prompt tokens counted: ${record.promptTokens}`);
    assert.ok(record.completionTokens > 20, `completion tokens counted: ${record.completionTokens}`);
  });

  it('retries a 503 with backoff and then succeeds', async () => {
    server = await startFakeOpenAI({ replies: [{ status: 503 }, { content: JSON.stringify(validPrd) }] });
    const { exchanges, askPrd } = await gatewayFor(server);
    assert.deepEqual(await askPrd(), validPrd);
    await exchanges.close();
    assert.equal(server.chatRequests().length, 2);
  });

  it('sends no response_format when structured output is turned off', async () => {
    server = await startFakeOpenAI({ replies: [{ content: 'Sure!\n```json\n' + JSON.stringify(validPrd) + '\n```' }] });
    const { exchanges, askPrd } = await gatewayFor(server, { SOPWORKS_STRUCTURED_OUTPUT: 'off' });
    assert.deepEqual(await askPrd(), validPrd);
    await exchanges.close();
    assert.equal(server.chatRequests()[0]!.body.response_format, undefined);
    assert.match(server.chatRequests()[0]!.body.messages[1].content, /must match this JSON Schema/);
  });

  it('turns a rejected key into an error that names the setting', async () => {
    server = await startFakeOpenAI({ apiKey: 'the-right-key', replies: [] });
    const { exchanges, askPrd } = await gatewayFor(server);
    await assert.rejects(askPrd(), (error: unknown) => {
      assert.ok(SopworksError.isInstance(error));
      assert.equal(error.code, 'MODEL_AUTH');
      assert.match(error.message, /rejected the API key \(401\)/);
      assert.match(error.hint ?? '', /OPENAI_API_KEY/);
      return true;
    });
    await exchanges.close();
  });

  it("plans the limits for a context window the server's model list reports, and sends them: max_tokens and the schema's caps", async function () {
    // A whole run through the CLI, as the company suites give one.
    this.timeout(120_000);
    server = await startFakeOpenAI({ modelEntry: { max_model_len: 4096 }, replies: () => ({ content: 'not json at all' }) });
    const cwd = await tempDir();
    const result = await sopworks(['run', 'a todo app', '--out', cwd, '--name', 'todo'], {
      cwd,
      env: { OPENAI_BASE_URL: server.url, SOPWORKS_MODEL: 'test-model', SOPWORKS_MAX_REPAIRS: '1' },
    });
    assert.equal(result.code, 1, result.stderr);
    const plan =
      /limits for a context of 4096 tokens: replies up to (\d+) tokens \(a reply of files continued up to 2 times\), lists up to (\d+) items?, strings up to (\d+) characters, files shown within the room .*\(from the server's model list\)/.exec(
        result.stdout + result.stderr,
      );
    assert.ok(plan, result.stdout + result.stderr);
    const [first, second] = server.chatRequests();
    for (const request of [first!, second!]) {
      assert.equal(request.body.max_tokens, Number(plan[1]), 'the planned output limit is the request limit');
      const schema = request.body.response_format.json_schema.schema;
      assert.equal(schema.properties.goals.maxItems, Number(plan[2]));
      assert.equal(schema.properties.summary.maxLength, Number(plan[3]));
      // The prompt's own description of the format says the same caps, and the reply's limit.
      const prompt = request.body.messages.map((m: { content: string }) => m.content).join('\n');
      assert.match(prompt, new RegExp(`"maxLength": ${plan[3]}`));
      assert.match(prompt, new RegExp(`"maxItems": ${plan[2]}`));
      assert.match(prompt, new RegExp(`Your whole reply may be at most ${plan[1]} tokens`));
    }
  });

  it('states the reply limit each request is sent with, and separately how far a cut-off reply is continued (trial redact1)', async function () {
    this.timeout(120_000);
    server = await startFakeOpenAI({ modelEntry: { max_model_len: 131072 }, replies: () => ({ content: 'not json at all' }) });
    const cwd = await tempDir();
    const result = await sopworks(['run', 'a todo app', '--out', cwd, '--name', 'todo'], {
      cwd,
      env: { OPENAI_BASE_URL: server.url, SOPWORKS_MODEL: 'test-model', SOPWORKS_MAX_REPAIRS: '1', SOPWORKS_MAX_CONTINUATIONS: '2' },
    });
    assert.equal(result.code, 1, result.stderr);
    const [first] = server.chatRequests();
    const prompt = first!.body.messages.map((m: { content: string }) => m.content).join('\n');
    const said =
      /Each reply may be at most (\d+) tokens \(about \d+ characters\)\. A reply cut off at that limit is continued: .* up to (\d+) tokens \(about \d+ characters\) in all/.exec(
        prompt,
      );
    assert.ok(said, prompt.slice(-1200));
    assert.equal(Number(said[1]), first!.body.max_tokens, "the reply's limit the prompt states is the request's max_tokens");
    assert.equal(Number(said[2]), 3 * first!.body.max_tokens, 'continued twice: three requests in all');
    assert.doesNotMatch(prompt, /Your whole reply may be at most/);
  });

  it('refuses a wrong key at the command line before writing anything (exit 2)', async () => {
    server = await startFakeOpenAI({ apiKey: 'the-right-key', replies: [] });
    const cwd = await tempDir();
    const result = await sopworks(['run', 'a todo app', '--out', cwd], {
      cwd,
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-wrong' },
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /rejected the API key \(401\)\. Nothing was written/);
    assert.deepEqual(await fs.readdir(cwd), []);
  });
});
