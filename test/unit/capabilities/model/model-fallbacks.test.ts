/**
 * Fallbacks: which failures send a call to the role's next model (the wordings of common servers for a
 * prompt over the context window), the gateway walking a chain, and a resumed call following the
 * recorded attempts to the model that answered — without asking any model again.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ExchangeReplay } from '../../../../src/capabilities/model/exchange-log.ts';
import { fallbackReason, isContextOverflow } from '../../../../src/capabilities/model/fallback-reason.ts';
import { Gateway, type GatewayEvent } from '../../../../src/capabilities/model/gateway.ts';
import { PromptRenderer } from '../../../../src/capabilities/model/prompt-renderer.ts';
import type { Completion, CompletionRequest, ModelRoute, Provider } from '../../../../src/capabilities/model/provider.ts';
import { RoutedProvider } from '../../../../src/capabilities/model/providers/routed.ts';
import { parseModelFor, resolveRoleModels, roleModelsFromRecord, roleModelsRecord } from '../../../../src/capabilities/model/role-model.ts';
import { readSettings } from '../../../../src/capabilities/model/settings.ts';
import { UsageMeter } from '../../../../src/capabilities/model/usage.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import { Review } from '../../../../src/documents/index.ts';
import { loadRoleProfile } from '../../../../src/engine/roles/index.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { AppendLog, readAppendLog } from '../../../../src/ground/files/index.ts';
import { ROLES } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const overflowWordings = [
  "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.", // OpenAI
  "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (1000 in the messages, 4000 in the completion).", // vLLM
  'the request exceeds the available context size, try increasing it', // llama.cpp server
  'Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.', // LM Studio
  'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 1000 `max_new_tokens`', // TGI
  'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length', // Mistral
  'prompt is too long: 210000 tokens > 200000 maximum', // Anthropic-compatible gateways
  'input length exceeds the context length', // Ollama
];

class Answering implements Provider {
  readonly sent: string[] = [];
  constructor(
    readonly label: string,
    private readonly answer: (request: CompletionRequest) => string | Error,
  ) {}
  async complete(request: CompletionRequest): Promise<Completion> {
    this.sent.push(request.messages.at(-1)!.content);
    const answer = this.answer(request);
    if (answer instanceof Error) throw answer;
    return { text: answer, usage: { promptTokens: 100, completionTokens: 10 }, finishReason: 'stop' };
  }
}

const route = (provider: Provider, price: ModelRoute['price'] = null): ModelRoute => ({ label: provider.label, provider, price, maxOutputTokens: 1000 });
const call = { role: 'engineer', action: 'review_file', key: 'src/a.js' };

async function gatewayFor(chain: ModelRoute[], replay?: ExchangeReplay) {
  const roles = await tempDir();
  await fs.cp(path.join(ROLES, '_shared'), path.join(roles, '_shared'), { recursive: true });
  await fs.mkdir(path.join(roles, 'engineer'));
  await fs.copyFile(path.join(ROLES, 'engineer', 'role.yaml'), path.join(roles, 'engineer', 'role.yaml'));
  await fs.writeFile(path.join(roles, 'engineer', 'review_file.hbs'), 'Review `{{key}}`.\n');
  const logFile = path.join(await tempDir(), 'exchanges.jsonl');
  const exchanges = await AppendLog.open(logFile, { flush: 'each' });
  const events: GatewayEvent[] = [];
  const meter = new UsageMeter();
  const provider = new RoutedProvider('routed', { engineer: chain }, [chain[0]!]);
  const gateway = new Gateway({
    provider,
    renderer: new PromptRenderer(roles, markdownRenderers),
    meter,
    exchanges,
    maxRepairs: 1,
    replay,
    onEvent: (e) => events.push(e),
  });
  const profile = await loadRoleProfile(roles, 'engineer');
  const ask = (occurrence = 0) =>
    gateway.ask({ call, profile, variables: { key: 'src/a.js' }, output: { kind: 'json', name: 'Review', schema: Review }, occurrence });
  return { ask, events, meter, logFile, close: () => exchanges.close() };
}

const approved = JSON.stringify({ approved: true, issues: [] });

describe('model fallbacks', () => {
  after(removeTempDirs);

  it('knows a prompt over the context window in the wordings of common servers', () => {
    for (const message of overflowWordings) {
      assert.ok(isContextOverflow(new Error(message)), message);
      assert.equal(fallbackReason(new SopworksError('MODEL_ERROR', `The model endpoint failed: ${message}`)), 'context length exceeded', message);
    }
    assert.ok(isContextOverflow(Object.assign(new Error('bad request'), { code: 'context_length_exceeded' })));
  });

  it('sends no transient, budget or key failure to another model', () => {
    for (const error of [
      new SopworksError('MODEL_UNREACHABLE', 'Cannot reach the model endpoint'),
      new SopworksError('MODEL_AUTH', 'rejected the API key (401)'),
      new SopworksError('BUDGET_EXHAUSTED', 'The budget is spent'),
      new SopworksError('LOOP_DETECTED', 'the same reply twice'),
      new SopworksError('MODEL_ERROR', 'The model endpoint kept failing: server error 503'),
      new Error('socket hang up'),
    ]) {
      assert.equal(fallbackReason(error), null, error.message);
    }
    assert.equal(fallbackReason(new SopworksError('MODEL_NOT_FOUND', 'does not know model "gpt-5o" (404)')), 'model not found');
    assert.equal(fallbackReason(new SopworksError('REPLY_INVALID', 'still invalid')), 'replies still invalid after the re-asks');
  });

  it('walks the chain: a missing model, then one whose replies stay invalid, then one that answers — each recorded with its model', async () => {
    const missing = new Answering('openai:gpt-5o', () => new SopworksError('MODEL_NOT_FOUND', 'The model endpoint does not know model "gpt-5o" (404)'));
    const weak = new Answering('openai:tiny', () => 'Looks fine to me!');
    const strong = new Answering('openai:strong', () => approved);
    const g = await gatewayFor([route(missing), route(weak), route(strong, { inputPerMTok: 1, outputPerMTok: 2 })]);
    assert.deepEqual(await g.ask(), { approved: true, issues: [] });
    await g.close();
    const fallbacks = g.events.filter((e) => e.kind === 'call-fallback').map((e) => (e.kind === 'call-fallback' ? `${e.from} → ${e.to}: ${e.reason}` : ''));
    assert.deepEqual(fallbacks, ['openai:gpt-5o → openai:tiny: model not found', 'openai:tiny → openai:strong: replies still invalid after the re-asks']);
    const { records } = await readAppendLog(g.logFile);
    assert.deepEqual(
      (records as { attempt: number; model: string; ok: boolean; unavailable?: string }[]).map((r) => [r.attempt, r.model, r.ok, r.unavailable ?? null]),
      [
        [1, 'openai:gpt-5o', false, 'model not found'],
        [2, 'openai:tiny', false, null],
        [3, 'openai:tiny', false, null],
        [4, 'openai:strong', true, null],
      ],
    );
    const [record] = g.meter.records;
    assert.equal(record!.model, 'openai:strong');
    assert.equal(record!.costUsd, null, 'a call answered partly by a model of unknown price has an unknown cost');
  });

  it('asks a model the endpoint does not know only once per run', async () => {
    const missing = new Answering('openai:gpt-5o', () => new SopworksError('MODEL_NOT_FOUND', 'does not know model "gpt-5o" (404)'));
    const strong = new Answering('openai:strong', () => approved);
    const g = await gatewayFor([route(missing), route(strong)]);
    await g.ask(0);
    await g.ask(1).catch(() => undefined); // the same reply twice is a loop: what matters is who was asked
    await g.close();
    assert.equal(missing.sent.length, 1);
    assert.equal(strong.sent.length, 2);
  });

  it('ends with the last failure when no model is left, naming every model tried', async () => {
    const weak = new Answering('openai:tiny', () => 'no idea');
    const weaker = new Answering('openai:tinier', () => 'still no idea');
    const g = await gatewayFor([route(weak), route(weaker)]);
    await assert.rejects(
      g.ask(),
      (e: unknown) => SopworksError.isInstance(e) && e.code === 'REPLY_INVALID' && /models tried: openai:tiny, openai:tinier/.test(e.message),
    );
    await g.close();
  });

  it('a resumed call follows the recorded attempts to the model that answered, asking none again', async () => {
    const missing = new Answering('openai:gpt-5o', () => new SopworksError('MODEL_NOT_FOUND', 'does not know model "gpt-5o" (404)'));
    const strong = new Answering('openai:strong', () => approved);
    const first = await gatewayFor([route(missing), route(strong)]);
    await first.ask();
    await first.close();
    const { records } = await readAppendLog(first.logFile);
    const missingAgain = new Answering('openai:gpt-5o', () => new Error('must not be asked'));
    const strongAgain = new Answering('openai:strong', () => new Error('must not be asked'));
    const resumed = await gatewayFor([route(missingAgain), route(strongAgain)], ExchangeReplay.parse(records));
    assert.deepEqual(await resumed.ask(), { approved: true, issues: [] });
    await resumed.close();
    assert.equal(missingAgain.sent.length + strongAgain.sent.length, 0);
  });

  it('resolves each role its chain: company.yaml, --model-for over it, the run model for the rest; run.json keeps no key', () => {
    const base = readSettings({ OPENAI_API_KEY: 'sk-run', SOPWORKS_MODEL: 'gpt-4o-mini' }).model;
    const chains = resolveRoleModels(
      base,
      [
        {
          id: 'architect',
          model: {
            model: 'gpt-4o',
            apiKeyEnv: 'ARCH_KEY',
            temperature: 0.2,
            fallbacks: ['gpt-4o-mini', { model: 'qwen', baseUrl: 'http://localhost:11434/v1', price: { input: 0, output: 0 } }],
          },
        },
        { id: 'qa', model: 'gpt-4.1-mini' },
        { id: 'engineer' },
      ],
      parseModelFor(['qa=o4-mini'], ['architect', 'qa', 'engineer']),
      { ARCH_KEY: 'sk-arch' },
    );
    assert.deepEqual(
      chains.architect!.map((m) => [m.settings.model, m.settings.apiKey, m.settings.baseUrl, m.settings.temperature]),
      [
        ['gpt-4o', 'sk-arch', null, 0.2],
        ['gpt-4o-mini', 'sk-run', null, null],
        ['qwen', 'sk-run', 'http://localhost:11434/v1', null],
      ],
    );
    assert.deepEqual(
      chains.qa!.map((m) => m.settings.model),
      ['o4-mini'],
    );
    assert.deepEqual(
      chains.engineer!.map((m) => m.settings.model),
      ['gpt-4o-mini'],
    );
    const kept = roleModelsRecord(chains);
    assert.ok(!JSON.stringify(kept).includes('sk-'), 'no key in run.json');
    const again = resolveRoleModels(base, roleModelsFromRecord(kept), {}, { ARCH_KEY: 'sk-arch' });
    assert.deepEqual(roleModelsRecord(again), kept, 'resume resolves the same chains from run.json');
  });
});
