import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { PromptRenderer } from '../../../../src/capabilities/model/prompt-renderer.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import type { PRD } from '../../../../src/documents/index.ts';
import { loadRoleProfile, type RoleProfile } from '../../../../src/engine/roles/index.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { ROLES } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const SCHEMA = JSON.stringify({ type: 'object', properties: { projectName: { type: 'string' } }, required: ['projectName'] }, null, 2);

const prd: PRD = {
  projectName: 'wordfreq',
  summary: 'Counts how often each word appears in a text.',
  goals: ['Count words quickly'],
  userStories: [{ asA: 'a writer', iWant: 'to see my most used words', soThat: 'I can vary my style' }],
  requirementPool: [{ id: 'R1', description: 'Count words case-insensitively', priority: 'P0' }],
  acceptanceCriteria: ['"A a" counts as two of "a"'],
  openQuestions: [],
};

async function rolesCopy(): Promise<string> {
  const dir = path.join(await tempDir('sopworks-roles-'), 'roles');
  await fs.cp(ROLES, dir, { recursive: true });
  return dir;
}

function templateError(run: () => unknown, ...messages: RegExp[]): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(SopworksError.isInstance(error), `expected a SopworksError, got ${String(error)}`);
    assert.equal(error.code, 'TEMPLATE_INVALID');
    for (const m of messages) assert.match(error.message, m);
    return true;
  });
}

describe('PromptRenderer', () => {
  after(removeTempDirs);

  let profile: RoleProfile;
  let roleYaml: { name: string; title: string; goal: string; constraints: string[] };
  before(async () => {
    profile = await loadRoleProfile(ROLES, 'product-manager');
    roleYaml = parseYaml(await fs.readFile(path.join(ROLES, 'product-manager', 'role.yaml'), 'utf8'));
  });

  it('renders write_prd: a system prompt the same for every role, the role, the spec and the schema in the request', () => {
    const renderer = new PromptRenderer(ROLES, markdownRenderers);
    const spec = 'a CLI that counts word frequencies in a text file';
    const prompt = renderer.render(profile, 'write_prd', { spec }, { kind: 'json', schema: SCHEMA });
    for (const said of [roleYaml.title, roleYaml.name, roleYaml.goal, roleYaml.constraints[0]!]) {
      assert.ok(!prompt.system.includes(said), prompt.system);
      assert.ok(prompt.user.includes(said), prompt.user);
    }
    assert.ok(prompt.user.indexOf(roleYaml.goal) < prompt.user.indexOf(spec), 'who the role is comes before what it is asked');
    assert.ok(prompt.user.includes(spec), prompt.user);
    assert.ok(prompt.user.includes(SCHEMA), 'the JSON schema text is in the request verbatim');
    assert.ok(prompt.user.indexOf(spec) < prompt.user.indexOf(SCHEMA), 'the request comes before the format instructions');
    assert.ok(!prompt.user.includes('{{'), 'no unrendered Handlebars left');
  });

  it('does not HTML-escape what it is given', () => {
    const spec = 'parse <tags> & "quotes" in a file';
    const prompt = new PromptRenderer(ROLES, markdownRenderers).render(profile, 'write_prd', { spec }, { kind: 'json', schema: '{"a": "<b>"}' });
    assert.ok(prompt.user.includes(spec));
    assert.ok(prompt.user.includes('{"a": "<b>"}'));
  });

  it('refuses to render a template that uses a variable it was not given, naming the template', () => {
    const renderer = new PromptRenderer(ROLES, markdownRenderers);
    templateError(
      () => renderer.render(profile, 'write_prd', {}, { kind: 'json', schema: SCHEMA }),
      new RegExp(`Template ${path.join(ROLES, 'product-manager', 'write_prd.hbs').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} failed to render`),
      /spec/,
    );
  });

  it('refuses a template with an unknown variable in a copied roles folder', async () => {
    const roles = await rolesCopy();
    const template = path.join(roles, 'product-manager', 'write_prd.hbs');
    await fs.appendFile(template, '\nAlso consider {{budgetInDollars}}.\n');
    const renderer = new PromptRenderer(roles, markdownRenderers);
    try {
      renderer.render(profile, 'write_prd', { spec: 'x' }, { kind: 'json', schema: SCHEMA });
      assert.fail('expected TEMPLATE_INVALID');
    } catch (error) {
      assert.ok(SopworksError.isInstance(error));
      assert.equal(error.code, 'TEMPLATE_INVALID');
      assert.ok(error.message.includes(template), error.message);
      assert.match(error.message, /budgetInDollars/);
      assert.match(error.hint ?? '', /It was given: role, spec/);
    }
  });

  it('refuses a missing template, naming it', () => {
    const renderer = new PromptRenderer(ROLES, markdownRenderers);
    templateError(() => renderer.render(profile, 'write_poem', {}, { kind: 'json', schema: SCHEMA }), /write_poem\.hbs is missing/);
  });

  it('renders a PRD as markdown with the markdown helper', async () => {
    const roles = await rolesCopy();
    await fs.writeFile(path.join(roles, 'product-manager', 'show_prd.hbs'), 'The PRD:\n\n{{markdown "PRD" prd}}\n');
    const prompt = new PromptRenderer(roles, markdownRenderers).render(profile, 'show_prd', { prd }, { kind: 'json', schema: SCHEMA });
    assert.match(prompt.user, /# wordfreq — Product Requirements/);
    assert.match(prompt.user, /## Goals\n\n- Count words quickly/);
    assert.match(prompt.user, /As a writer, I want to see my most used words, so that I can vary my style\./);
    assert.match(prompt.user, /^- R1 \(P0\): Count words case-insensitively$/m);
    assert.ok(prompt.user.includes('"A a" counts as two of "a"'), 'quotes are not escaped');
    // A story the model ended with a full stop gets no second one (trial flagexpr48: "…for that user..").
    const ended = { ...prd, userStories: [{ asA: 'a writer', iWant: 'counts', soThat: 'I can vary my style.' }] };
    const again = new PromptRenderer(roles, markdownRenderers).render(profile, 'show_prd', { prd: ended }, { kind: 'json', schema: SCHEMA });
    assert.match(again.user, /so that I can vary my style\.$/m);
  });

  it('puts a file holding its own fences in a longer fence with the fence helper', async () => {
    const roles = await rolesCopy();
    await fs.writeFile(path.join(roles, 'product-manager', 'show_file.hbs'), '## README.md\n{{fence content}}\n\nReview it.\n');
    const content = '# tool\n\n```sh\nnpm test\n```\n';
    const prompt = new PromptRenderer(roles, markdownRenderers).render(profile, 'show_file', { content }, { kind: 'json', schema: SCHEMA });
    assert.ok(prompt.user.includes(`\n\n## README.md\n\`\`\`\`\n${content}\`\`\`\`\n\nReview it.`), prompt.user);
  });

  it('refuses the markdown helper for an artifact it cannot render', async () => {
    const roles = await rolesCopy();
    const template = path.join(roles, 'product-manager', 'show.hbs');
    await fs.writeFile(template, '{{markdown "Poem" prd}}\n');
    const renderer = new PromptRenderer(roles, markdownRenderers);
    templateError(() => renderer.render(profile, 'show', { prd }, { kind: 'json', schema: SCHEMA }), /show\.hbs failed to render/, /no renderer for "Poem"/);
  });

  it('renders the repair prompt with the validation error', () => {
    const text = new PromptRenderer(ROLES, markdownRenderers).renderRepair(
      { error: '- goals: must not be empty', excerpt: '"goals": []', partial: true },
      { kind: 'json', schema: SCHEMA },
    );
    assert.ok(text.includes('- goals: must not be empty'), text);
    assert.match(text, /around the problem \(the rest is left out here\):\n~~~~\n"goals": \[\]\n~~~~/);
  });
});
