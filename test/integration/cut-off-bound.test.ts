/**
 * Replies cut off at the output limit, bounded in tokens: a step's continuations and re-asks together
 * spend at most SOPWORKS_MAX_CUT_OFF_TOKENS completion tokens (default three whole replies), through the
 * real client against the local server; and many requests sharing the run's abort signal make Node
 * print no MaxListenersExceededWarning.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createOpenAIProvider, Gateway, PromptRenderer, readSettings, UsageMeter } from '../../src/capabilities/model/index.ts';
import { markdownRenderers } from '../../src/company/index.ts';
import { PRD } from '../../src/documents/index.ts';
import { loadRoleProfile } from '../../src/engine/roles/index.ts';
import { SopworksError } from '../../src/ground/errors.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/openai-server.ts';
import { ROLES } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

// Structured output off: under json_schema the SDK withholds a cut-off text, and that request is sent
// again without it (provider-faults.test.ts) — a request these counts would then have to allow for.
const FAST = { SOPWORKS_RETRY_BASE_MS: '10', SOPWORKS_TIMEOUT_MS: '5000', SOPWORKS_MAX_OUTPUT_TOKENS: '100', SOPWORKS_STRUCTURED_OUTPUT: 'off' };
const PRD_TEXT = JSON.stringify({
  projectName: 'todo',
  summary: 'A todo list.',
  goals: ['Track tasks'],
  userStories: [{ asA: 'user', iWant: 'to add tasks', soThat: 'I remember them' }],
  requirementPool: [{ id: 'R1', description: 'Add a task', priority: 'P0' }],
  acceptanceCriteria: ['Adding a task lists it'],
  openQuestions: [],
});
/** Every reply stops at the output limit of 100 tokens, mid-sentence. */
const ALWAYS_CUT_OFF = () => ({
  content: '{"projectName": "todo", "summary": "A todo list that',
  finishReason: 'length',
  usage: { prompt_tokens: 50, completion_tokens: 100 },
});

async function gatewayFor(server: FakeOpenAI, env: Record<string, string> = {}) {
  const settings = readSettings({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test', SOPWORKS_MODEL: 'test-model', ...FAST, ...env });
  const roles = await tempDir();
  await fs.cp(path.join(ROLES, '_shared'), path.join(roles, '_shared'), { recursive: true });
  await fs.mkdir(path.join(roles, 'product-manager'));
  await fs.copyFile(path.join(ROLES, 'product-manager', 'role.yaml'), path.join(roles, 'product-manager', 'role.yaml'));
  await fs.writeFile(path.join(roles, 'product-manager', 'write_prd.hbs'), 'Write the PRD of: {{spec}}\n');
  const provider = await createOpenAIProvider(settings.model);
  const meter = new UsageMeter();
  const gateway = new Gateway({ provider, renderer: new PromptRenderer(roles, markdownRenderers), meter, exchanges: null, maxRepairs: settings.maxRepairs });
  const profile = await loadRoleProfile(roles, 'product-manager');
  const ask = (occurrence = 0, signal?: AbortSignal) =>
    gateway.ask({
      call: { role: 'product-manager', action: 'write_prd', key: null },
      profile,
      variables: { spec: 'a todo list' },
      output: { kind: 'json', name: 'PRD', schema: PRD },
      occurrence,
      signal,
    });
  return { ask, meter };
}

const completionTokens = (server: FakeOpenAI): number => server.chatRequests().length * 100;

describe('replies cut off at the output limit, bounded in tokens', function () {
  this.timeout(30_000);
  let server: FakeOpenAI | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });
  after(removeTempDirs);

  it('spends at most three whole replies on a step whose every reply is cut off (the default), then says why', async () => {
    server = await startFakeOpenAI({ replies: ALWAYS_CUT_OFF });
    const { ask, meter } = await gatewayFor(server);
    await assert.rejects(ask(), (error: unknown) => {
      assert.ok(SopworksError.isInstance(error));
      assert.equal(error.code, 'REPLY_INVALID');
      assert.match(error.message, /kept stopping at the output limit: 300 completion tokens went to cut-off replies.*SOPWORKS_MAX_CUT_OFF_TOKENS \(300\)/);
      assert.match(error.hint ?? '', /SOPWORKS_MAX_OUTPUT_TOKENS/);
      return true;
    });
    assert.equal(server.chatRequests().length, 3, 'one request and two continuations, no re-ask past the bound');
    assert.ok(completionTokens(server) <= 300);
    assert.equal(meter.total().completionTokens, 300, 'the usage report has what was spent');
  });

  it('counts the reply the SDK withholds under json_schema against the bound, and meters it', async () => {
    server = await startFakeOpenAI({ replies: ALWAYS_CUT_OFF });
    const { ask, meter } = await gatewayFor(server, { SOPWORKS_STRUCTURED_OUTPUT: 'json_schema' });
    await assert.rejects(ask(), /SOPWORKS_MAX_CUT_OFF_TOKENS \(300\)/);
    // The withheld reply, the same request without response_format, one continuation: 300 tokens.
    assert.deepEqual(
      server.chatRequests().map((r) => r.body.response_format?.type ?? null),
      ['json_schema', null, null],
    );
    assert.equal(meter.total().completionTokens, 300);
  });

  it('shares SOPWORKS_MAX_CUT_OFF_TOKENS between continuations and re-asks', async () => {
    server = await startFakeOpenAI({ replies: ALWAYS_CUT_OFF });
    const { ask } = await gatewayFor(server, { SOPWORKS_MAX_CUT_OFF_TOKENS: '500' });
    await assert.rejects(ask(), /SOPWORKS_MAX_CUT_OFF_TOKENS \(500\)/);
    // Three requests for the first attempt (two continuations), two for the re-ask: 500 tokens.
    assert.equal(server.chatRequests().length, 5);
    const reasks = server.chatRequests().filter((r) => r.body.messages.some((m: { content: string }) => /could not be used/.test(m.content)));
    assert.ok(reasks.length > 0, 'the step was re-asked within the bound');
  });

  it('still finishes a reply that needed one continuation', async () => {
    const prd = PRD_TEXT;
    server = await startFakeOpenAI({
      replies: [
        { content: prd.slice(0, 40), finishReason: 'length', usage: { prompt_tokens: 50, completion_tokens: 100 } },
        { content: prd.slice(40), usage: { prompt_tokens: 60, completion_tokens: 30 } },
      ],
    });
    const { ask } = await gatewayFor(server);
    assert.equal(((await ask()) as { projectName: string }).projectName, 'todo');
  });

  it("prints no MaxListenersExceededWarning when many requests share the run's abort signal", async () => {
    server = await startFakeOpenAI({ replies: () => ({ content: PRD_TEXT, delayMs: 20 }) });
    const { ask } = await gatewayFor(server);
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const run = new AbortController();
      await Promise.all(Array.from({ length: 16 }, (_, i) => ask(i, run.signal)).map((p) => p.catch((e: unknown) => e)));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(
      warnings.map((w) => `${w.name}: ${w.message}`),
      [],
    );
    assert.equal(server.chatRequests().length, 16);
  });
});
