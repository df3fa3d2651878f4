/**
 * A prompt's files fitted to the model's context (issue 36, Must 4): QA's prompt carries every file of the
 * project, more than a context holds once a project is large; the largest files are then shown by their
 * interface, then by name, until the prompt fits — never cut mid-file, each one saying so — and a prompt
 * that fits is sent as it is.
 */
import assert from 'node:assert/strict';
import { fitFiles, fittedVariables } from '../../../../src/capabilities/model/fit-files.ts';
import { Gateway } from '../../../../src/capabilities/model/gateway.ts';
import { type Price, priceFor } from '../../../../src/capabilities/model/prices.ts';
import { PromptRenderer } from '../../../../src/capabilities/model/prompt-renderer.ts';
import type { ChatMessage, Completion, CompletionRequest, ModelRoute, Provider } from '../../../../src/capabilities/model/provider.ts';
import { countPromptTokens, countTextTokens } from '../../../../src/capabilities/model/token-count.ts';
import { UsageMeter } from '../../../../src/capabilities/model/usage.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import { loadRoleProfile } from '../../../../src/engine/roles/index.ts';
import { ROLES } from '../../../helpers/paths.ts';

/** A source file of about `lines` lines: exported functions with bodies, as an Engineer writes them. */
const source = (name: string, lines: number): string =>
  Array.from(
    { length: Math.ceil(lines / 5) },
    (_, i) =>
      `export function ${name}${i}(items, limit = 10) {\n  const kept = items.filter((item) => item.size < limit);\n  kept.sort((a, b) => a.size - b.size || a.name.localeCompare(b.name));\n  return kept.map((item) => \`\${item.name}: \${item.size}\`);\n}`,
  ).join('\n');

const files = Array.from({ length: 40 }, (_, i) => ({ path: `src/part${String(i).padStart(2, '0')}.js`, content: source(`part${i}`, 60 + 10 * (i % 7)) }));

/** A model with a context window that records what it is sent and answers with one test file. */
class WindowedModel implements Provider {
  readonly label = 'windowed';
  readonly sent: ChatMessage[][] = [];
  constructor(readonly contextWindow: number) {}
  readonly replyAllowance = 4096;
  async complete(request: CompletionRequest): Promise<Completion> {
    this.sent.push(request.messages);
    return { text: 'test/a.test.js\n```js\nimport test from "node:test";\n```\n', usage: null, finishReason: 'stop' };
  }
}

describe("a prompt's files fitted to the model's context", () => {
  it('shows the largest files by their interface, then by name, until the prompt fits — and leaves a prompt that fits as it is', async () => {
    const variables = { files, design: { summary: 'parts' } };
    const size = (v: Record<string, unknown>) => countTextTokens(JSON.stringify(v));
    const whole = size(variables);
    const untouched = await fitFiles(variables, (v) => size(v) - whole, countTextTokens);
    assert.equal(untouched.variables, variables, 'it fits: the same variables');

    const half = await fitFiles(variables, (v) => size(v) - Math.floor(whole / 2), countTextTokens);
    assert.ok(size(half.variables) <= whole / 2);
    assert.ok(half.byInterface.length > 0 && half.leftOut.length === 0);
    const shown = (half.variables.files as typeof files).find((f) => f.path === half.byInterface[0])!;
    assert.match(shown.content, /^⋮ \(the whole file does not fit the model's context: its interface\)\nexport function part\d+0\(items, limit = 10\)/);
    // The largest went first, and the files left whole are whole.
    const original = new Map(files.map((f) => [f.path, f.content]));
    const smallestShortened = Math.min(...half.byInterface.map((p) => original.get(p)!.length));
    for (const f of half.variables.files as typeof files) {
      if (half.byInterface.includes(f.path)) continue;
      assert.equal(f.content, original.get(f.path), `${f.path} is whole`);
      assert.ok(f.content.length <= smallestShortened, `${f.path} is no larger than a file shown by its interface`);
    }
    assert.deepEqual(variables.files, files, 'the caller’s variables are not changed');

    const tiny = await fitFiles(variables, (v) => size(v) - 1500, countTextTokens);
    assert.ok(tiny.leftOut.length > 0, 'interfaces alone do not fit 1,500 tokens: some files are named only');
    assert.match(
      (tiny.variables.files as typeof files).find((f) => f.path === tiny.leftOut[0])!.content,
      /^⋮ \(left out: its \d+ lines do not fit the model's context\)\n$/,
    );
    assert.deepEqual(await fitFiles(variables, (v) => size(v) - 1500, countTextTokens), tiny, 'the same fitting every time');
  });

  it("fits QA's real prompt of 40 files to a 16k context through the gateway, its reply's room kept", async () => {
    const model = new WindowedModel(16_384);
    const gateway = new Gateway({
      provider: model,
      renderer: new PromptRenderer(ROLES, markdownRenderers),
      meter: new UsageMeter(),
      exchanges: null,
      maxRepairs: 0,
    });
    const prd = {
      projectName: 'parts',
      summary: 's',
      goals: ['g'],
      userStories: [{ asA: 'a', iWant: 'b', soThat: 'c' }],
      requirementPool: [{ id: 'R1', description: 'd', priority: 'P0' }],
      acceptanceCriteria: ['x'],
      openQuestions: [],
    };
    const design = {
      summary: 's',
      approach: 'a',
      language: 'JavaScript',
      testCommand: ['node', '--test'],
      runCommand: null,
      files: files.map((f) => ({ path: f.path, purpose: 'a part' })),
      classDiagram: 'classDiagram\n  class A',
      sequenceDiagram: 'sequenceDiagram\n  A->>B: x',
    };
    await gateway.ask({
      call: { role: 'qa', action: 'write_tests', key: null },
      profile: await loadRoleProfile(ROLES, 'qa'),
      variables: { prd, design, files, key: null },
      output: { kind: 'files' },
      occurrence: 0,
    });
    const prompt = model.sent[0]!;
    assert.ok(countPromptTokens(prompt) + 4096 <= 16_384, `${countPromptTokens(prompt)} tokens`);
    const user = prompt[1]!.content;
    for (const f of files) assert.ok(user.includes(`### ${f.path}`), `${f.path} is still named`);
    assert.match(user, /⋮ \(the whole file does not fit the model's context: its interface\)/);
  });
});

describe("the run's documents every request opens with, kept where the cache makes them cheaper", () => {
  const route = (price: Price | null): ModelRoute => ({ label: 'm', provider: new WindowedModel(1_000_000), price, maxOutputTokens: 4096 });
  const unwindowed = (price: Price | null): ModelRoute => ({
    ...route(price),
    provider: { label: 'm', complete: async () => ({ text: '', usage: null, finishReason: 'stop' }) },
  });
  const request = { variables: { documents: { spec: 'a CLI that counts words' }, task: 'src/count.js' } };
  const render = (variables: Record<string, unknown>): ChatMessage[] => [{ role: 'user', content: JSON.stringify(variables) }];

  it("keeps them where a cached token costs a quarter or less (gpt-4.1, gpt-5), or nothing, or the price is not known (a server of one's own)", async () => {
    for (const price of [
      priceFor('gpt-4.1', null),
      priceFor('gpt-5-mini', null),
      { inputPerMTok: 0, outputPerMTok: 0 },
      { inputPerMTok: 3, outputPerMTok: 15 },
      null,
    ]) {
      for (const make of [route, unwindowed]) assert.deepEqual(await fittedVariables(request, [make(price)], render), request.variables, JSON.stringify(price));
    }
  });

  it('leaves them out where a cached token costs more than a quarter (gpt-4o-mini, the default, and gpt-4o; DeepSeek set by hand), and when any model of the chain would', async () => {
    const scoped = { task: 'src/count.js' };
    for (const price of [priceFor('gpt-4o-mini', null), priceFor('gpt-4o', null), { inputPerMTok: 0.27, outputPerMTok: 1.1, cachedInputPerMTok: 0.07 }]) {
      for (const make of [route, unwindowed]) assert.deepEqual(await fittedVariables(request, [make(price)], render), scoped, JSON.stringify(price));
    }
    assert.deepEqual(await fittedVariables(request, [route(priceFor('gpt-5', null)), route(priceFor('gpt-4o', null))], render), scoped);
  });
});
