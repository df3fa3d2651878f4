/**
 * The real ChatOpenAI client (through the openai provider and the gateway) against a local
 * OpenAI-compatible server: what is sent, usage recorded from the server, an invalid reply re-asked,
 * transport faults retried, and errors that say what to fix.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppendLog, readAppendLog } from '../../src/ground/files/append-log.ts';
import { readSettings } from '../../src/capabilities/model/settings.ts';
import { PRD } from '../../src/documents/schemas.ts';
import { SopworksError } from '../../src/ground/errors.ts';
import { Gateway } from '../../src/capabilities/model/gateway.ts';
import { PromptRenderer } from '../../src/capabilities/model/prompt-renderer.ts';
import { OpenAIProvider } from '../../src/capabilities/model/providers/openai.ts';
import { UsageMeter } from '../../src/capabilities/model/usage.ts';
import { loadRoleProfile } from '../../src/engine/roles/role-profile.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/openai-server.ts';
import { ROLES } from '../helpers/paths.ts';
import { runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';
import { markdownRenderers } from '../../src/company/vocabulary.ts';

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
  const provider = await OpenAIProvider.create(settings.model);
  const meter = new UsageMeter();
  const logFile = path.join(await tempDir(), 'exchanges.jsonl');
  const exchanges = await AppendLog.open(logFile, { flush: 'each' });
  const price = { inputPerMTok: 1, outputPerMTok: 2 };
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
    assert.match(first!.body.messages[0].content, /Product Manager/);
    assert.match(first!.body.messages[1].content, /> a todo list in the terminal/);
    assert.equal(first!.body.response_format.type, 'json_schema');
    assert.equal(first!.body.response_format.json_schema.name, 'PRD');
    assert.equal(first!.body.response_format.json_schema.strict, true);
    assert.equal(first!.body.response_format.json_schema.schema.additionalProperties, false);
    assert.deepEqual(first!.body.response_format.json_schema.schema.required, Object.keys(validPrd));

    // The re-ask carries the bad reply and the validation error.
    assert.deepEqual(
      second!.body.messages.map((m: { role: string }) => m.role),
      ['system', 'user', 'assistant', 'user'],
    );
    assert.match(second!.body.messages[3].content, /goals: Too small: expected array to have >=1 items/);

    // 680 prompt tokens at $1/M and 100 completion tokens at $2/M.
    assert.deepEqual(meter.total(), { calls: 1, promptTokens: 680, completionTokens: 100, repairs: 1, retries: 0, costUsd: 0.00088 });
    assert.equal(meter.records[0]!.counted, false);
    const { records } = await readAppendLog(logFile);
    assert.deepEqual(
      records.map((r) => (r as { attempt: number; ok: boolean }).ok),
      [false, true],
    );
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

  it('refuses a wrong key at the command line before writing anything (exit 2)', async () => {
    server = await startFakeOpenAI({ apiKey: 'the-right-key', replies: [] });
    const cwd = await tempDir();
    const result = await runCli(['run', 'a todo app', '--out', cwd], {
      cwd,
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-wrong' },
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /rejected the API key \(401\)\. Nothing was written/);
    assert.deepEqual(await fs.readdir(cwd), []);
  });
});
