/**
 * Reading a template without rendering it: which names it uses where the step's variables are in
 * scope, and which it uses where they are not (inside #each and #with).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import Handlebars from 'handlebars';
import { SOPWORKS_HELPERS } from '../../../../src/capabilities/model/check-templates.ts';
import { PromptRenderer } from '../../../../src/capabilities/model/prompt-renderer.ts';
import { analyseTemplate, type TemplateUse } from '../../../../src/capabilities/model/template-analysis.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const HELPERS = new Set([...Object.keys(Handlebars.create().helpers), ...SOPWORKS_HELPERS]);

function uses(source: string): TemplateUse[] {
  const analysis = analyseTemplate(source, HELPERS);
  assert.ok(analysis.ok, analysis.ok ? '' : analysis.message);
  return analysis.uses;
}
/** "line:column" of the n-th occurrence of `needle` in `source` (1-based, as the analysis reports). */
function at(source: string, needle: string, nth = 1): string {
  let index = -1;
  for (let i = 0; i < nth; i++) index = source.indexOf(needle, index + 1);
  assert.ok(index !== -1, `"${needle}" is not in the template`);
  const before = source.slice(0, index).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}
const variables = (source: string) =>
  uses(source).flatMap((u) => (u.kind === 'variable' ? [`${u.name}${u.member ? `.${u.member}` : ''}@${u.at.line}:${u.at.column}`] : []));

describe('template analysis', () => {
  after(removeTempDirs);

  it('names each top-level variable with where it is, through this., @root and #if', () => {
    const source = 'Hi {{role.name}}\n{{this.key}} {{@root.prd}}{{#if design.runCommand}}{{draft}}{{else}}{{other}}{{/if}}';
    assert.deepEqual(variables(source), [
      `role.name@${at(source, 'role.name')}`,
      `key@${at(source, 'this.key')}`,
      `prd@${at(source, '@root.prd')}`,
      `design.runCommand@${at(source, 'design.runCommand')}`,
      `draft@${at(source, 'draft')}`,
      `other@${at(source, 'other')}`,
    ]);
  });

  it('leaves alone the names inside #each and #with, where the context is an item — but not ../ and @root', () => {
    const source = '{{#each design.files}}{{path}} {{this.purpose}} {{@index}} {{../key}} {{@root.spec}}{{else}}{{none}}{{/each}}';
    assert.deepEqual(variables(source), [
      `design.files@${at(source, 'design.files')}`,
      `key@${at(source, '../key')}`,
      `spec@${at(source, '@root.spec')}`,
      `none@${at(source, 'none')}`,
    ]);
    const blocks = '{{#with task}}{{description}}{{/with}}{{#each xs as |x|}}{{x.y}}{{/each}}';
    assert.deepEqual(variables(blocks), [`task@${at(blocks, 'task')}`, `xs@${at(blocks, 'xs')}`]);
  });

  it('tells helpers from variables, and reports the artifact a markdown call renders', () => {
    const found = uses('{{json tasks}} {{markdown "PRD" prd}} {{join (lookup design "testCommand") " "}} {{markdown kind prd}}');
    assert.deepEqual(
      found.map((u) =>
        u.kind === 'variable' ? `var ${u.name}` : u.kind === 'helper' ? `helper ${u.name}` : u.kind === 'markdown' ? `markdown ${u.artifact}` : u.kind,
      ),
      [
        'helper json',
        'var tasks',
        'helper markdown',
        'markdown PRD',
        'var prd',
        'helper join',
        'helper lookup',
        'var design',
        'helper markdown',
        'markdown null',
        'var kind',
        'var prd',
      ],
    );
  });

  it('reports partials with what they are passed, and ../ that climbs above the top', () => {
    const source = '{{> dependencies}}\n{{> code-files files=tests.files}}\n{{#each xs}}{{> item}}{{/each}}{{#if a}}{{../b}}{{/if}}';
    const found = uses(source);
    assert.deepEqual(
      found
        .filter((u) => u.kind === 'partial')
        .map((u) => u.kind === 'partial' && `${u.name} top=${u.topLevel} hash=${u.hashKeys.join(',')} context=${u.hasContext}`),
      ['dependencies top=true hash= context=false', 'code-files top=true hash=files context=false', 'item top=false hash= context=false'],
    );
    assert.deepEqual(
      found.filter((u) => u.kind === 'above-top').map((u) => u.kind === 'above-top' && `${u.original}@${u.at.line}:${u.at.column}`),
      [`../b@${at(source, '../b')}`],
    );
  });

  it('places a syntax error at its line and column', () => {
    const unclosed = analyseTemplate('line one\n  {{spec}\n', HELPERS);
    assert.deepEqual(unclosed.ok ? null : unclosed.at, { line: 2, column: 9 });
    assert.match(unclosed.ok ? '' : unclosed.message, /^Parse error on line 2: Expecting /);
    const mismatched = analyseTemplate('a\n{{#if x}}\n{{/each}}', HELPERS);
    assert.equal(mismatched.ok ? '' : mismatched.message, "if doesn't match each");
  });

  it('knows the helpers the prompt renderer registers (each one renders)', async () => {
    const roles = await tempDir('sopworks-helpers-');
    await fs.mkdir(path.join(roles, '_shared'), { recursive: true });
    await fs.mkdir(path.join(roles, 'qa'));
    await fs.writeFile(path.join(roles, '_shared', 'system.hbs'), 'system');
    await fs.writeFile(path.join(roles, '_shared', 'format-files.hbs'), 'format');
    const calls: Record<(typeof SOPWORKS_HELPERS)[number], string> = {
      json: '{{json list}}',
      markdown: '{{markdown "BugReport" bug}}',
      join: '{{join list "+"}}',
      fence: '{{fence bug.summary "txt"}}',
      includes: '{{#if (includes list "b")}}has b{{/if}}',
      paths: '{{join (paths files) "|"}}',
      isDocument: '{{#if (isDocument "README.md")}}a document{{/if}}{{#if (isDocument "src/a.js")}}code{{/if}}',
      criterionId: '{{#each list}}{{criterionId "KW" @index}};{{/each}}',
      above: '{{#if (above "bug")}}bug above{{else}}bug here{{/if}}',
      firstLine: '[{{firstLine bug.message}}]',
      outputFormat: 'the step said{{outputFormat}}the call said',
    };
    await fs.writeFile(path.join(roles, 'qa', 'helpers.hbs'), SOPWORKS_HELPERS.map((name) => calls[name]).join('\n'));
    const renderer = new PromptRenderer(roles, markdownRenderers);
    const profile = { id: 'qa', email: 'qa@sopworks.local', name: 'Dave', title: 'QA', goal: 'g', constraints: [] };
    const bug = {
      summary: 'broken',
      failingTests: ['t'],
      files: [{ path: 'src/a.js', problem: 'p' }],
      message: '  a.go:3: undefined: x \nnote: module requires Go 1.21',
    };
    const files = [{ path: 'x.js' }, { path: 'y.js' }];
    const { user } = renderer.render(profile, 'helpers', { list: ['a', 'b'], bug, files }, { kind: 'files' });
    assert.match(user, /^\[\n {2}"a",\n {2}"b"\n\]\n/);
    assert.match(user, /broken/);
    assert.match(user, /^a\+b$/m);
    assert.match(user, /^```txt\nbroken\n```$/m);
    assert.match(user, /^has b$/m);
    assert.match(user, /^x\.js\|y\.js$/m);
    assert.match(user, /^a document$/m, 'README.md is a document, src/a.js is not');
    assert.match(user, /^KW-1;KW-2;$/m, 'a criterion id from its place in its list');
    assert.match(user, /^bug here$/m, 'no request opens with the bug report');
    assert.match(user, /^\[a\.go:3: undefined: x\]$/m, "a message's first line, trimmed");
    assert.match(user, /^the step said\n\nformat\n\nthe call said\n$/m, 'the format where the template puts it, the rest after it');
  });
});
