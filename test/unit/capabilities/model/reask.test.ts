/**
 * Re-asks within a budget (issue 29, Must 2): a re-ask sends the validation error and a short excerpt of
 * the rejected reply around the problem, never all of it, so its prompt is at most a few hundred tokens
 * longer than the first attempt's whatever the model wrote; and no request is sent whose prompt and reply
 * allowance do not fit the model's context window.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Gateway } from '../../../../src/capabilities/model/gateway.ts';
import { PromptRenderer } from '../../../../src/capabilities/model/prompt-renderer.ts';
import type { ChatMessage, Completion, CompletionRequest, Provider } from '../../../../src/capabilities/model/provider.ts';
import { anchorOf, REASK_LIMITS, reaskOf } from '../../../../src/capabilities/model/reask.ts';
import { countPromptTokens, countTextTokens } from '../../../../src/capabilities/model/token-count.ts';
import { UsageMeter } from '../../../../src/capabilities/model/usage.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import { PRD } from '../../../../src/documents/index.ts';
import { loadRoleProfile } from '../../../../src/engine/roles/index.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { ROLES } from '../../../helpers/paths.ts';
import { removeTempDirs } from '../../../helpers/temp-dir.ts';

/** A model that answers from a list and records every request it was sent. */
class ListModel implements Provider {
  readonly label = 'list-model';
  readonly sent: ChatMessage[][] = [];
  constructor(
    private readonly replies: string[],
    readonly contextWindow?: number,
  ) {}
  async complete(request: CompletionRequest): Promise<Completion> {
    this.sent.push(request.messages.map((m) => ({ ...m })));
    const text = this.replies[Math.min(this.sent.length - 1, this.replies.length - 1)]!;
    return { text, usage: null, finishReason: 'stop' };
  }
}

async function gatewayOn(provider: Provider, maxRepairs = 2) {
  const profile = await loadRoleProfile(ROLES, 'product-manager');
  const gateway = new Gateway({
    provider,
    renderer: new PromptRenderer(ROLES, markdownRenderers),
    meter: new UsageMeter(),
    exchanges: null,
    maxRepairs,
    maxOutputTokens: 512,
  });
  return () =>
    gateway.ask({
      call: { role: 'product-manager', action: 'write_prd', key: null },
      profile,
      variables: { spec: 'a CLI that counts words' },
      output: { kind: 'json', name: 'PRD', schema: PRD },
      occurrence: 0,
    });
}

/** What small models send when they ramble: one string that never ends, an object cut off, junk. */
const rambles = {
  'one endless string': `{"projectName": "words", "summary": "${'the tool counts the words and '.repeat(600)}`,
  'a cut-off object': `{"projectName": "w", "summary": "s", "goals": [${'"count words", '.repeat(900)}`,
  'junk tokens': Array.from({ length: 9000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 2000))).join(''),
  'prose and JSON': `Sure! Here is the PRD you asked for.\n\n${'It has many parts. '.repeat(400)}\n\`\`\`json\n{"projectName": ""}\n\`\`\``,
};

describe('re-asks within a budget', () => {
  after(removeTempDirs);

  for (const [shape, reply] of Object.entries(rambles)) {
    it(`keeps every re-ask within a few hundred tokens of the first prompt: ${shape}`, async () => {
      const model = new ListModel([reply]);
      await assert.rejects((await gatewayOn(model))(), /still invalid after 3 attempts/);
      assert.equal(model.sent.length, 3);
      const first = countPromptTokens(model.sent[0]!);
      for (const reask of model.sent.slice(1)) {
        const grown = countPromptTokens(reask) - first;
        assert.ok(grown > 0 && grown <= 450, `a re-ask grew the prompt by ${grown} tokens (reply: ${countTextTokens(reply)} tokens)`);
        assert.equal(reask.length, 2, 'no growing conversation');
        assert.ok(!reask[1]!.content.includes(reply.trim()), 'never the whole reply');
      }
    });
  }

  it('shows the part of the reply around the problem, not its start', () => {
    const reply = `{"projectName": "words", "summary": "${'fine text '.repeat(300)}", "goals": [], "userStories": [{"asA": "user"}]}`;
    const error = 'the JSON does not match the required schema:\n- userStories.0.iWant: Invalid input: expected string, received undefined';
    const reask = reaskOf(reply, error, countTextTokens);
    assert.ok(reask.partial);
    assert.match(reask.excerpt, /"userStories": \[\{"asA": "user"\}\]\}$/);
    assert.ok(countTextTokens(reask.excerpt) <= REASK_LIMITS.excerptTokens);
  });

  it('finds the problem where real errors point: a parser position, a quoted line, a cut-off end, a schema key', () => {
    const text = `line one\n${'x'.repeat(2000)}\n// ... existing code here\n${'y'.repeat(2000)}`;
    assert.equal(anchorOf(text, 'Unexpected character "{" at position 1500'), 1500);
    assert.equal(anchorOf(text, 'src/a.js leaves code out (line 3: "// ... existing code here"); write the whole file'), text.indexOf('// ...'));
    assert.equal(anchorOf(text, 'the reply was cut off before the JSON ended'), text.length);
    assert.equal(anchorOf('{"a": 1, "design": {"classDiagram": "graph"}}', '- design.classDiagram: must start'), 20);
    assert.equal(anchorOf(text, 'the reply contains no JSON object'), 0);
    assert.equal(anchorOf('{\n"a": 1,\n"b": ]\n}', "Unexpected token ']', line 3 column 6"), 15);
  });

  it('cuts a long validation error to its first problems and says how many are left out', () => {
    const error = `the JSON does not match the required schema:\n${Array.from({ length: 80 }, (_, i) => `- goals.${i}: must not be empty`).join('\n')}`;
    const reask = reaskOf('{}', error, countTextTokens);
    assert.ok(countTextTokens(reask.error) <= REASK_LIMITS.errorTokens, reask.error);
    assert.match(reask.error, /^the JSON does not match the required schema:\n- goals\.0: must not be empty\n/);
    assert.match(reask.error, /\(and \d+ more lines of problems\)$/);
    assert.equal(reask.excerpt, '{}');
    assert.equal(reask.partial, false);
  });

  it('sends no request whose prompt and reply allowance do not fit the context window, and says by how much', async () => {
    const model = new ListModel(['{}'], 600);
    await assert.rejects((await gatewayOn(model))(), (error: unknown) => {
      assert.ok(SopworksError.isInstance(error));
      assert.match(
        error.message,
        /The prompt for \{role: product-manager, action: write_prd, key: \(none\)\} is \d+ tokens; with 512 kept for the reply it does not fit list-model's context window of 600 tokens \(context length exceeded by \d+\)/,
      );
      assert.match(error.hint ?? '', /SOPWORKS_LOCAL_CONTEXT/);
      return true;
    });
    assert.equal(model.sent.length, 0, 'nothing was sent');
  });

  it('checks every re-ask against the window too: a re-ask that would not fit is never sent', async () => {
    const probe = new ListModel(['{}']);
    await assert.rejects((await gatewayOn(probe, 0))());
    const first = countPromptTokens(probe.sent[0]!);
    // Room for the first request and its reply, not for a re-ask's few hundred tokens more.
    const model = new ListModel([rambles['one endless string']], first + 512 + 20);
    await assert.rejects((await gatewayOn(model))(), /context length exceeded/);
    assert.equal(model.sent.length, 1);
  });

  it('keeps the shipped repair template within what the budget assumes', async () => {
    // REASK_TOKENS keeps 150 tokens for the template's own words and the earlier errors' bullets.
    const template = await fs.readFile(path.join(ROLES, '_shared', 'repair.hbs'), 'utf8');
    assert.ok(countTextTokens(template) + 2 * 2 < 150, `${countTextTokens(template)} tokens`);
  });
});
