/**
 * The layout of a run's prompts for a provider's prompt cache (issue 42, docs/performance.md "Prompt
 * caches"): every request opens with the same system prompt, whatever the role, then the run's documents
 * as they stand (the `documents` view), and only then the role, the step's own part and the format — so
 * that two different steps of two different roles share a prefix longer than OpenAI's 1,024-token minimum.
 * Documents a step is given as they stand are not shown twice; a draft that differs from a published one
 * is shown whole, and a draft of a document not yet published stands where the documents will show it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { countTextTokens } from '../../../../src/capabilities/model/index.ts';
import { PromptRenderer } from '../../../../src/capabilities/model/prompt-renderer.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import { Design, PRD } from '../../../../src/documents/index.ts';
import { loadRoleProfile } from '../../../../src/engine/roles/index.ts';
import { ROLES, ROOT } from '../../../helpers/paths.ts';

/** A capable model's PRD and design, from its recorded run. */
async function recordedDocuments(): Promise<{ prd: PRD; design: Design; spec: string }> {
  const scenario = parse(await fs.readFile(path.join(ROOT, 'test', 'fixtures', 'recorded', 'mdtable-node.yaml'), 'utf8')) as {
    spec: string;
    replies: { action: string; reply: string }[];
  };
  const reply = (action: string) => JSON.parse(scenario.replies.find((r) => r.action === action)!.reply);
  return { spec: scenario.spec, prd: PRD.parse(reply('write_prd')), design: Design.parse(reply('write_design')) };
}

/** The length of the start two texts share. */
function sharedStart(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

describe("a run's prompts, laid out for a provider's cache", () => {
  it('open two steps of two roles alike: one system prompt, then the documents, before the role and the step', async () => {
    const { spec, prd, design } = await recordedDocuments();
    const renderer = new PromptRenderer(ROLES, markdownRenderers);
    const documents = { spec, repoMap: null, changeRequest: null, designDelta: null, prd, design };
    const format = { kind: 'json' as const, schema: '{}' };
    const architect = await loadRoleProfile(ROLES, 'architect');
    const qa = await loadRoleProfile(ROLES, 'qa');
    const tasks = renderer.render(architect, 'write_tasks', { prd, design, documents, key: null, revisions: null }, format);
    const tests = renderer.render(qa, 'write_tests', { prd, design, files: [], documents, key: null, revisions: null }, { kind: 'files' });

    assert.equal(tasks.system, tests.system, 'one system prompt for every role');
    const shared = tasks.user.slice(0, sharedStart(tasks.user, tests.user));
    for (const text of [spec, markdownRenderers.PRD!(prd), markdownRenderers.Design!(design)])
      assert.ok(shared.includes(text), 'the documents come first, whole');
    const who = (role: typeof qa) => `You are ${role.name}, the ${role.title}.`;
    assert.ok(!shared.includes(who(architect)) && tasks.user.includes(who(architect)) && tests.user.includes(who(qa)), 'who the role is comes after them');
    assert.ok(countTextTokens(tasks.system + shared) >= 1024, `a shared start of ${countTextTokens(tasks.system + shared)} tokens`);

    // Each step is given the PRD and the design as they stand: neither is shown a second time.
    for (const user of [tasks.user, tests.user]) assert.equal(user.split(markdownRenderers.Design!(design)).length, 2, 'the design once');
    // A draft that differs from what the run published is the step's own part: shown whole, after the role.
    const draft = { ...design, summary: 'A draft being revised.' };
    const revising = renderer.render(architect, 'write_tasks', { prd, design: draft, documents, key: null, revisions: null }, format);
    assert.ok(revising.user.indexOf(markdownRenderers.Design!(draft)) > revising.user.indexOf(`You are ${architect.name}`));
  });

  it('show a draft not yet published where the documents will show it, so the next step shares the prefix through it', async () => {
    const { spec, prd } = await recordedDocuments();
    const renderer = new PromptRenderer(ROLES, markdownRenderers);
    const pm = await loadRoleProfile(ROLES, 'product-manager');
    const architect = await loadRoleProfile(ROLES, 'architect');
    const format = { kind: 'json' as const, schema: '{}' };
    const before = { spec, repoMap: null, changeRequest: null, designDelta: null, prd: null, design: null };
    const review = renderer.render(pm, 'review_prd', { spec, prd, documents: before, key: null, revisions: null }, format);
    const design = renderer.render(architect, 'write_design', { prd, documents: { ...before, prd }, key: null, revisions: null }, format);

    const shared = review.user.slice(0, sharedStart(review.user, design.user));
    assert.ok(shared.includes(markdownRenderers.PRD!(prd)), 'the draft under review stands where the published PRD will');
    assert.ok(review.user.indexOf(markdownRenderers.PRD!(prd)) < review.user.indexOf(`You are ${pm.name}`), 'before the role');
    assert.equal(review.user.split(markdownRenderers.PRD!(prd)).length, 2, 'the draft once');
    assert.match(review.user, /The PRD above is a draft, not yet published/);
    assert.doesNotMatch(design.user, /is a draft, not yet published/, 'a published PRD is not called a draft');
  });

  it("share between two reviews of two files the step's fixed text and output format, before each file", async () => {
    const { spec, prd, design } = await recordedDocuments();
    const renderer = new PromptRenderer(ROLES, markdownRenderers);
    const engineer = await loadRoleProfile(ROLES, 'engineer');
    const documents = { spec, repoMap: null, changeRequest: null, designDelta: null, prd, design };
    const schema = '{"type": "object", "description": "a review"}';
    const review = (file: string, content: string) =>
      renderer.render(
        engineer,
        'review_file',
        {
          documents,
          key: file,
          revisions: { last: false, more: '2 more revisions' },
          draft: { path: file, content },
          task: { description: `Write ${file}.` },
          designExcerpt: { file: { path: file, purpose: 'a part' }, classDiagram: null, sequenceDiagram: null },
          criteria: { named: true, items: [{ id: 'AC-1', text: 'works' }] },
          dependencies: [],
        },
        { kind: 'json', schema },
      ).user;
    const one = review('src/a.js', 'export const a = 1;\n');
    const two = review('src/b.js', 'export const b = 2;\n');
    const shared = one.slice(0, sharedStart(one, two));
    assert.ok(shared.includes(schema) && shared.includes('Approve it only if it meets every criterion'), 'the format and the fixed instructions are shared');
    for (const [user, file] of [
      [one, 'src/a.js'],
      [two, 'src/b.js'],
    ] as const) {
      assert.ok(user.indexOf(schema) < user.indexOf(`## The file to review: ${file}`), 'the file after the format');
      assert.match(user, /### 1\. Its task\nWrite src\/[ab]\.js\.[\s\S]*reviewed again \(2 more revisions at most\)[\s\S]*reply in the format above\.\n$/);
    }
  });

  it("share between two writes of two files the output format, before each file's task, with the rules that name the file after it", async () => {
    const { spec, prd, design } = await recordedDocuments();
    const renderer = new PromptRenderer(ROLES, markdownRenderers);
    const engineer = await loadRoleProfile(ROLES, 'engineer');
    const documents = { spec, repoMap: null, changeRequest: null, designDelta: null, prd, design };
    const write = (file: string) =>
      renderer.render(
        engineer,
        'write_file',
        {
          documents,
          key: file,
          revisions: null,
          prd,
          task: { description: `Write ${file}.` },
          designExcerpt: { file: { path: file, purpose: 'a part', executable: false }, testCommand: ['node', '--test'], packages: [] },
          criteria: { named: true, items: [{ id: 'AC-1', text: 'works' }] },
          dependencies: [],
        },
        { kind: 'code', path: file, replyTokens: 4096, replyChars: 12288 },
        null,
        [`\`${file}\` must pass \`node --check\`.`],
      ).user;
    const one = write('src/a.js');
    const two = write('src/b.js');
    const shared = one.slice(0, sharedStart(one, two));
    assert.match(
      shared,
      /## Output format\nReply with the complete content of the file in exactly one fenced code block[\s\S]*Your whole reply may be at most 4096 tokens/,
    );
    for (const [user, file] of [
      [one, 'src/a.js'],
      [two, 'src/b.js'],
    ] as const) {
      const at = (text: string) => user.indexOf(text);
      assert.ok(at(`The file to write: \`${file}\`.`) < at(`## Task: \`${file}\``), 'the format names the file, before its task');
      assert.ok(at(`Write \`${file}\`, in the format stated above.`) < at('## Rules your reply must meet'), 'the rules last');
      assert.ok(user.endsWith(`- \`${file}\` must pass \`node --check\`.\n`));
    }
  });

  it('open with the role when a step is given no documents (their view left out to fit a small context)', async () => {
    const pm = await loadRoleProfile(ROLES, 'product-manager');
    const prompt = new PromptRenderer(ROLES, markdownRenderers).render(
      pm,
      'write_prd',
      { spec: 'a CLI', answers: [], key: null, revisions: null },
      {
        kind: 'json',
        schema: '{}',
      },
    );
    assert.match(prompt.user, /^# Your part\nYou are Alice, the Product Manager\./);
  });
});
