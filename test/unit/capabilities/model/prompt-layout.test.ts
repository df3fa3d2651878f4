/**
 * The layout of a run's prompts for a provider's prompt cache (issue 42, docs/performance.md "Prompt
 * caches"): every request opens with the same system prompt, whatever the role, then the run's documents
 * as they stand (the `documents` view), and only then the role, the step's own part and the format — so
 * that two different steps of two different roles share a prefix longer than OpenAI's 1,024-token minimum.
 * Documents a step is given as they stand are not shown twice; a draft that differs is shown whole.
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
