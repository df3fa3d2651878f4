/**
 * The project's own instructions (src/company/project-instructions.ts): a repository's AGENTS.md,
 * CONVENTIONS.md, the coding rules of CONTRIBUTING.md and .editorconfig, and the person's own file, read
 * bounded and untrusted (no link followed, no binary), and shown to every role after its system prompt.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { countTextTokens, PromptRenderer } from '../../../src/capabilities/model/index.ts';
import { codingRules, INSTRUCTIONS_TOKENS, projectInstructions, readInstructionsFile, SOURCE_TOKENS } from '../../../src/company/project-instructions.ts';
import { markdownRenderers } from '../../../src/company/vocabulary.ts';
import { loadRoleProfile } from '../../../src/engine/roles/index.ts';
import { SopworksError } from '../../../src/ground/errors.ts';
import { ROLES } from '../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../helpers/temp-dir.ts';

const CONTRIBUTING = [
  '# Contributing',
  'Open an issue first.',
  '## Pull requests',
  'Sign the CLA and squash your commits.',
  '## Code style',
  'Use tabs. Name tests after the function they test.',
  '### Naming',
  'camelCase for functions.',
  '## Releases',
  'Tag from main.',
].join('\n');

async function repository(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await tempDir('sopworks-instructions-');
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), content);
  }
  return dir;
}

describe('project instructions', () => {
  after(removeTempDirs);

  it("reads AGENTS.md, CONVENTIONS.md, CONTRIBUTING.md's coding rules only and .editorconfig, after the person's own", async () => {
    const dir = await repository({
      'AGENTS.md': 'Run `npm test` before you finish.\n',
      'docs/CONVENTIONS.md': 'Prefer small functions.\n',
      '.github/CONTRIBUTING.md': CONTRIBUTING,
      '.editorconfig': 'root = true\n[*]\nindent_style = tab\n',
    });
    const text = await projectInstructions(dir, 'Write comments in French.');
    assert.ok(text);
    const headings = [...text.matchAll(/^### From (.*):$/gm)].map((m) => m[1]);
    assert.deepEqual(headings, [
      'Instructions given for this run',
      'AGENTS.md',
      'docs/CONVENTIONS.md',
      '.github/CONTRIBUTING.md (its coding rules)',
      '.editorconfig',
    ]);
    assert.match(text, /Use tabs\.[\s\S]*camelCase for functions\./);
    for (const process of ['Open an issue first', 'Sign the CLA', 'Tag from main'])
      assert.ok(!text.includes(process), `${process} is about the process, not code`);
    assert.equal(await projectInstructions(await repository({ 'README.md': '# hi\n' }), null), null, 'no instructions: none shown');
    assert.equal(codingRules('# Contributing\nBe kind.\n## Releases\nTag it.\n'), '', 'a CONTRIBUTING.md without coding rules gives nothing');
  });

  it('follows no symbolic link and reads no binary: a link to a secret of this machine is not sent to the model', async () => {
    const outside = await repository({ 'secret.txt': 'SECRET-TOKEN-42\n' });
    const dir = await repository({ 'CONVENTIONS.md': Buffer.from([0x43, 0x00, 0x01, 0x02]), '.editorconfig': 'root = true\n' });
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(dir, 'AGENTS.md'));
    await fs.mkdir(path.join(dir, 'CONTRIBUTING.md'));
    const text = await projectInstructions(dir, null);
    assert.equal(text, '### From .editorconfig:\nroot = true');
  });

  it('bounds each source and all of them in tokens, saying what is cut', async () => {
    const long = (word: string) => Array.from({ length: 600 }, (_, i) => `- ${word} rule ${i}: keep the code tidy.`).join('\n');
    const dir = await repository({ 'AGENTS.md': long('agents'), 'CONVENTIONS.md': long('conventions'), '.editorconfig': 'root = true\n' });
    const text = await projectInstructions(dir, long('person'));
    assert.ok(text);
    assert.ok(countTextTokens(text) <= INSTRUCTIONS_TOKENS + 200, `${countTextTokens(text)} tokens`);
    const sections = text.split(/\n\n(?=### )/);
    assert.equal(sections.length, 4);
    assert.ok(countTextTokens(sections[0] ?? '') <= SOURCE_TOKENS + 60);
    assert.match(sections[0] ?? '', /\(… \d+ more lines of Instructions given for this run not shown: the instructions are bounded\)$/);
    assert.match(sections[1] ?? '', /^### From AGENTS\.md:\n- agents rule 0/);
    assert.match(sections[3] ?? '', /^### From \.editorconfig:\n\(not shown: no room left/);
  });

  it('refuses an instructions file that is missing, empty or binary, with a hint', async () => {
    const dir = await repository({ 'empty.md': ' \n', 'bin.md': Buffer.from([0, 1, 2]) });
    for (const file of ['missing.md', 'empty.md', 'bin.md']) {
      await assert.rejects(readInstructionsFile(path.join(dir, file)), (e: unknown) => SopworksError.isInstance(e) && e.code === 'USAGE' && Boolean(e.hint));
    }
  });

  it("shows the instructions after every role's system prompt (its requests' and the context plan's), never in the request", async () => {
    const format = { kind: 'json' as const, schema: '{}' };
    const told = new PromptRenderer(ROLES, markdownRenderers, '### From AGENTS.md:\nUse tabs.');
    const plain = new PromptRenderer(ROLES, markdownRenderers);
    for (const role of ['product-manager', 'architect', 'engineer', 'qa']) {
      const profile = await loadRoleProfile(ROLES, role);
      const before = plain.renderFixed(profile, 'write_file', format);
      const prompt = told.renderFixed(profile, 'write_file', format);
      assert.ok(prompt.system.startsWith(before.system.trimEnd()), `${role}: the system prompt first, a prefix every call of the role shares`);
      assert.match(prompt.system, /## The project's own instructions[\s\S]*### From AGENTS\.md:\nUse tabs\.\n$/);
      assert.equal(prompt.user, before.user);
      assert.ok(!before.system.includes("project's own instructions"), 'none given: the prompt is as before');
    }
  });
});
