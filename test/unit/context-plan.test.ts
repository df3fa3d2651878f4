/**
 * Defaults that fit the model (issue 29, Must 1): the output limit, the caps on lists and strings and the
 * continuations are planned from the context window and the SOP's own prompts so that no step — nor a
 * re-ask of it — can overflow; a context that cannot hold the SOP is refused saying what to set. The
 * plan's one assumption, that a reply grows by at most RENDERING as later prompts show it, is attacked
 * here with artifacts filled to every cap.
 */
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { planContext, plannedSteps, promptBound, RENDERING, stringSlots } from '../../src/capabilities/model/context-plan.ts';
import { serverJsonSchema } from '../../src/capabilities/model/strict-json-schema.ts';
import { countPromptTokens, countTextTokens } from '../../src/capabilities/model/token-count.ts';
import { loadCompany } from '../../src/company/load-company.ts';
import { sopPrompts } from '../../src/company/sop-prompts.ts';
import { markdownRenderers as renderers } from '../../src/company/vocabulary.ts';
import { BugReport, Design, PRD, Review, TaskGraph } from '../../src/documents/schemas.ts';
import { SopworksError } from '../../src/ground/errors.ts';
import { ROLES, SOPS } from '../helpers/paths.ts';

/** A value of the schema with every list at `items` and every free string at `chars` characters of `fill`. */
function filled(node: any, items: number, chars: number, fill: (i: number) => string): unknown {
  const choices = node.anyOf ?? node.oneOf;
  if (choices) return filled(choices.find((c: any) => c.type !== 'null') ?? choices[0], items, chars, fill);
  const type = Array.isArray(node.type) ? node.type.find((t: string) => t !== 'null') : node.type;
  if (node.enum) return node.enum[0];
  if (node.pattern)
    return `${/^\^(\w+)/.exec(node.pattern)![1]}\n${fill(0)
      .repeat(chars)
      .slice(0, chars - 20)}`;
  if (type === 'string') return Array.from({ length: chars }, (_, i) => fill(i)).join('');
  if (type === 'array') return Array.from({ length: Math.min(node.maxItems ?? items, items) }, () => filled(node.items, items, chars, fill));
  if (type === 'object') return Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, filled(v, items, chars, fill)]));
  if (type === 'boolean') return false;
  if (type === 'integer' || type === 'number') return 1;
  return null;
}

/** A task graph filled so: each task its own file, no dependencies (a valid graph, as the check lets through). */
function graphFixed(value: any): unknown {
  if (!Array.isArray(value?.tasks)) return value;
  return { tasks: value.tasks.map((t: any, i: number) => ({ ...t, file: `${t.file.slice(0, -3)}${i}.js`, dependsOn: [] })) };
}

/** Text as real models write it, and as the random model does: junk of one character per token. */
const FILLS: Record<string, (i: number) => string> = {
  prose: (i) => 'the tool counts words '[i % 22]!,
  junk: (i) => String.fromCharCode(0x4e00 + ((i * 7919) % 5000)),
  escapes: (i) => ['"', '\\', '\n', 'é', '\t'][i % 5]!,
};

describe('the context plan', () => {
  let steps: ReturnType<typeof plannedSteps>;
  before(async () => {
    steps = plannedSteps(sopPrompts(await loadCompany(SOPS, ROLES), 'a CLI that counts words in text files'), countPromptTokens);
  });

  it('measures every model-asking step of the shipped SOPs, per-file ones included', () => {
    const names = steps.map((s) => s.name);
    for (const name of [
      'product-manager/write_prd',
      'architect/write_design',
      'engineer/write_file',
      'engineer/fix_file',
      'qa/write_tests',
      'qa/write_bug_report',
    ])
      assert.ok(names.includes(name), name);
    const fix = steps.find((s) => s.name === 'engineer/fix_file')!;
    assert.deepEqual([fix.replies, fix.perFile], [5, 1], 'designExcerpt, task, file, bug, testReport; dependencies per file');
  });

  for (const context of [3072, 4096, 8192, 16384, 32768, 131072]) {
    it(`leaves every step of the SOP, re-asked, within a context of ${context} tokens`, () => {
      const plan = planContext(context, steps, { replyTokens: 4096 });
      assert.ok(plan.replyTokens >= 160 && plan.replyTokens <= 4096);
      assert.ok(plan.maxItems >= 1 && plan.maxStringChars >= 16);
      assert.equal(plan.maxContinuations, 0, 'a reply later prompts carry is one request');
      for (const step of steps) {
        const prompt = promptBound(step, plan.replyTokens, plan.maxItems);
        assert.ok(prompt + plan.replyTokens <= context, `${step.name}: ${prompt} + ${plan.replyTokens} > ${context}`);
      }
      // More room gives longer replies (or as long: the ceiling).
      if (context < 131072) assert.ok(planContext(context * 2, steps, { replyTokens: 4096 }).replyTokens >= plan.replyTokens);
    });
  }

  it('keeps an explicit output limit as the ceiling', () => {
    assert.equal(planContext(131072, steps, { replyTokens: 700 }).replyTokens, 700);
  });

  it('refuses a context that cannot hold the SOP, naming the step and what to set', () => {
    assert.throws(
      () => planContext(1024, steps, { replyTokens: 4096 }),
      (error: unknown) => {
        assert.ok(SopworksError.isInstance(error));
        assert.equal(error.code, 'NO_MODEL');
        assert.match(error.message, /The model's context of 1024 tokens cannot hold the SOP's largest prompt: step [\w-]+\/\w+ is \d+ tokens/);
        assert.match(error.hint ?? '', /SOPWORKS_LOCAL_CONTEXT to \d+ or more/);
        return true;
      },
    );
  });

  it('caps strings so an artifact with every list full fits its reply at three characters a token', () => {
    const plan = planContext(16384, steps, { replyTokens: 4096 });
    for (const schema of [PRD, Design, TaskGraph, Review, BugReport]) {
      const json = serverJsonSchema(schema, plan);
      const value = filled(json, plan.maxItems, plan.maxStringChars, FILLS.prose!);
      assert.ok(stringSlots(json, plan.maxItems) * plan.maxStringChars <= plan.replyTokens * 3);
      assert.ok(countTextTokens(JSON.stringify(value)) <= plan.replyTokens, `${JSON.stringify(value).length} characters`);
    }
  });

  describe('a reply grows by at most RENDERING as later prompts show it (attacked)', () => {
    const shown: [string, z.ZodType, (value: unknown) => string][] = [
      ['PRD as Markdown', PRD, renderers.PRD!],
      ['Design as Markdown', Design, renderers.Design!],
      ['TaskGraph as pretty JSON ({{json tasks}})', TaskGraph, (v) => JSON.stringify(v, null, 2)],
      ['BugReport as Markdown', BugReport, renderers.BugReport!],
      ['Design as pretty JSON', Design, (v) => JSON.stringify(v, null, 2)],
      ['Review as pretty JSON', Review, (v) => JSON.stringify(v, null, 2)],
    ];
    for (const [what, schema, show] of shown) {
      for (const [fill, char] of Object.entries(FILLS)) {
        it(`${what}, ${fill} text, every list and string at its cap`, () => {
          for (const context of [3072, 4096, 8192, 16384, 32768]) {
            const { maxItems: items, maxStringChars: chars } = planContext(context, steps, { replyTokens: 4096 });
            const value = graphFixed(filled(serverJsonSchema(schema, { maxStringChars: chars, maxItems: items }), items, chars, char));
            const reply = countTextTokens(JSON.stringify(value));
            const rendered = countTextTokens(show(value));
            assert.ok(rendered <= RENDERING * reply, `${rendered} tokens shown for a reply of ${reply}`);
          }
        });
      }
    }
  });
});
