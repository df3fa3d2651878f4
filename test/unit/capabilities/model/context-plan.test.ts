/**
 * Defaults that fit the model (issue 29, Must 1; issue 36, Must 4): the output limit, the caps on lists
 * and strings and the continuations are planned from the context window and the SOP's own prompts so that
 * no step — nor a re-ask of it — can overflow, its lists of files fitted to the room it has left; with a
 * large context the caps are those of a useful artifact, and a context that cannot hold the SOP is refused
 * saying what to set. The plan's one assumption, that a reply grows by at most RENDERING as later prompts
 * show it, is attacked here with artifacts filled to every cap.
 */
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { FILE_INTERFACE_TOKENS, planContext, plannedSteps, promptBound, RENDERING, replyRoom } from '../../../../src/capabilities/model/context-plan.ts';
import { formatOf } from '../../../../src/capabilities/model/reply-format.ts';
import { serverJsonSchema } from '../../../../src/capabilities/model/strict-json-schema.ts';
import { countPromptTokens, countTextTokens } from '../../../../src/capabilities/model/token-count.ts';
import { loadCompany, markdownRenderers as renderers, sopPrompts } from '../../../../src/company/index.ts';
import { BugReport, Design, PRD, Review, TaskGraph } from '../../../../src/documents/index.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { ROLES, SOPS } from '../../../helpers/paths.ts';

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
      'architect/fix_design',
      'engineer/write_file',
      'engineer/fix_file',
      'qa/write_tests',
      'qa/write_bug_report',
    ])
      assert.ok(names.includes(name), name);
    const fix = steps.find((s) => s.name === 'engineer/fix_file')!;
    assert.deepEqual([fix.replies, fix.perFile], [5, 1], 'designExcerpt, task, file, bug, testReport; dependencies a list of files');
    const report = steps.find((s) => s.name === 'qa/write_bug_report')!;
    assert.deepEqual([report.replies, report.perFile], [3, 2], 'design, testReport, prd; the files and the tests, lists of files');
    const fixTests = steps.find((s) => s.name === 'qa/fix_tests')!;
    assert.deepEqual([fixTests.replies, fixTests.perFile], [3, 2], 'triage, testReport, prd; the tests and the files, lists of files');
    assert.equal(steps.find((s) => s.name === 'qa/write_tests')!.files, true, "QA's tests are a reply of files");
  });

  for (const context of [4096, 8192, 16384, 32768, 131072]) {
    it(`leaves every step of the SOP, re-asked, its reply and room for files within a context of ${context} tokens`, () => {
      const plan = planContext(context, steps, { replyTokens: 4096 });
      assert.ok(plan.replyTokens >= 160 && plan.replyTokens <= 4096);
      assert.ok(plan.maxItems >= 1 && plan.maxStringChars >= 16);
      assert.equal(plan.maxContinuations, 0, 'a reply later prompts carry whole is one request');
      for (const step of steps) {
        const prompt = promptBound(step, plan.replyTokens, plan.filesContinuations);
        const files = step.perFile * FILE_INTERFACE_TOKENS;
        assert.ok(prompt + files <= context, `${step.name}: ${prompt} + ${files} > ${context}`);
      }
      // More room gives longer replies (or as long: the ceiling).
      if (context < 131072) assert.ok(planContext(context * 2, steps, { replyTokens: 4096 }).replyTokens >= plan.replyTokens);
    });
  }

  it('gives a large context the caps of a useful artifact: prose and diagrams of 2,000 characters and more, 30 files and more', () => {
    const plan = planContext(128_000, steps, { replyTokens: 4096 });
    assert.equal(plan.replyTokens, 4096);
    assert.ok(plan.maxStringChars >= 2000, `strings up to ${plan.maxStringChars} characters`);
    assert.ok(plan.maxItems >= 30, `lists up to ${plan.maxItems} items`);
    // QA's reply of tests may be continued: its budget is three requests', kept in its prompt's room.
    const tests = steps.find((s) => s.name === 'qa/write_tests')!;
    assert.equal(replyRoom(tests, plan.replyTokens, plan.filesContinuations), 3 * 4096);
    assert.ok(promptBound(tests, plan.replyTokens, plan.filesContinuations) + FILE_INTERFACE_TOKENS * plan.maxItems <= 128_000);
  });

  it("says its caps in the format a prompt shows: the schema with every length, and the reply's own limit", () => {
    const plan = planContext(128_000, steps, { replyTokens: 4096 });
    const format = formatOf({ kind: 'json', name: 'Design', schema: Design }, { caps: plan, replyTokens: plan.replyTokens });
    const schema = JSON.parse(format.schema!);
    assert.equal(schema.properties.approach.maxLength, plan.maxStringChars);
    assert.equal(schema.properties.classDiagram.maxLength, plan.maxStringChars);
    assert.equal(schema.properties.files.maxItems, plan.maxItems);
    assert.equal(schema.properties.files.minItems, 1, "zod's own lengths travel too");
    assert.deepEqual([format.replyTokens, format.replyChars], [4096, 3 * 4096]);
    const files = formatOf(
      { kind: 'files' },
      { caps: plan, replyTokens: replyRoom({ name: 'qa', fixedTokens: 0, replies: 0, perFile: 0, files: true }, 4096, plan.filesContinuations) },
    );
    assert.equal(files.replyTokens, 3 * 4096);
  });

  it('keeps an explicit output limit as the ceiling', () => {
    assert.equal(planContext(131072, steps, { replyTokens: 700 }).replyTokens, 700);
  });

  it('refuses a context that cannot hold the SOP, naming the step and what to set', () => {
    assert.throws(
      () => planContext(2048, steps, { replyTokens: 4096 }),
      (error: unknown) => {
        assert.ok(SopworksError.isInstance(error));
        assert.equal(error.code, 'NO_MODEL');
        assert.match(error.message, /The model's context of 2048 tokens cannot hold the SOP's largest prompt: step [\w-]+\/\w+ is \d+ tokens/);
        assert.match(error.hint ?? '', /SOPWORKS_LOCAL_CONTEXT to \d+ or more/);
        return true;
      },
    );
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
          for (const context of [6144, 8192, 16384]) {
            const { maxItems, maxStringChars: chars } = planContext(context, steps, { replyTokens: 4096 });
            // Lists at their cap, or at 8 (the ratio does not grow with their length; the value would).
            const items = Math.min(maxItems, 8);
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
