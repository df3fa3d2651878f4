import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CallMeta, CompletionRequest } from '../../../../../src/capabilities/model/provider.ts';
import { ScriptedProvider } from '../../../../../src/capabilities/model/providers/scripted.ts';
import { loadScenario, replyText, type Scenario } from '../../../../../src/capabilities/model/scenario.ts';
import { SopworksError } from '../../../../../src/ground/errors.ts';
import { DEMO } from '../../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../../helpers/temp-dir.ts';

const request = (role: string, action: string, key: string | null = null): CompletionRequest => ({
  call: { role, action, key } satisfies CallMeta,
  messages: [{ role: 'user', content: 'hello' }],
  jsonSchema: null,
});

const scenario = (replies: Scenario['replies']): Scenario => ({ replies });

async function rejectsWithCode(promise: Promise<unknown>, code: string, ...messages: RegExp[]): Promise<SopworksError> {
  let caught: SopworksError | undefined;
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(SopworksError.isInstance(error), `expected a SopworksError, got ${String(error)}`);
    assert.equal(error.code, code);
    for (const m of messages) assert.match(error.message, m);
    caught = error;
    return true;
  });
  return caught!;
}

describe('scripted provider', () => {
  after(removeTempDirs);

  it('gives replies for the same role and action in order, one each', async () => {
    const provider = new ScriptedProvider(
      'scripted:test',
      scenario([
        { role: 'product-manager', action: 'review_prd', reply: 'first' },
        { role: 'architect', action: 'write_design', reply: 'design' },
        { role: 'product-manager', action: 'review_prd', reply: 'second' },
      ]),
    );
    assert.equal((await provider.complete(request('product-manager', 'review_prd'))).text, 'first');
    assert.equal((await provider.complete(request('architect', 'write_design'))).text, 'design');
    const second = await provider.complete(request('product-manager', 'review_prd'));
    assert.deepEqual(second, { text: 'second', usage: null, finishReason: 'stop' });
    assert.deepEqual(provider.unused(), []);
  });

  it('matches on the key: a keyed reply goes only to a call with that key', async () => {
    const provider = new ScriptedProvider(
      'scripted:test',
      scenario([
        { role: 'engineer', action: 'write_file', key: 'src/b.js', code: 'b();' },
        { role: 'engineer', action: 'write_file', key: 'src/a.js', code: 'a();' },
      ]),
    );
    assert.match((await provider.complete(request('engineer', 'write_file', 'src/a.js'))).text, /a\(\);/);
    await rejectsWithCode(provider.complete(request('engineer', 'write_file', 'src/a.js')), 'SCRIPT_EXHAUSTED');
    await rejectsWithCode(provider.complete(request('engineer', 'write_file')), 'SCRIPT_EXHAUSTED');
    assert.match((await provider.complete(request('engineer', 'write_file', 'src/b.js'))).text, /b\(\);/);
  });

  it('does not give an unkeyed reply to a keyed call', async () => {
    const provider = new ScriptedProvider('scripted:test', scenario([{ role: 'qa', action: 'write_tests', reply: 'x' }]));
    await rejectsWithCode(provider.complete(request('qa', 'write_tests', 'test/a.test.js')), 'SCRIPT_EXHAUSTED');
    assert.equal(provider.unused().length, 1);
  });

  it('fails with SCRIPT_EXHAUSTED naming role, action and key when no reply is left', async () => {
    const provider = new ScriptedProvider('scripted:examples/demo.yaml', scenario([{ role: 'engineer', action: 'write_file', key: 'src/a.js', reply: 'one' }]));
    await provider.complete(request('engineer', 'write_file', 'src/a.js'));
    const error = await rejectsWithCode(
      provider.complete(request('engineer', 'write_file', 'src/a.js')),
      'SCRIPT_EXHAUSTED',
      /role: engineer/,
      /action: write_file/,
      /key: src\/a\.js/,
      /1 consumed/,
    );
    assert.match(error.hint ?? '', /role: engineer, action: write_file, key: src\/a\.js to examples\/demo\.yaml/);
  });

  it('reports replies never asked for', async () => {
    const provider = new ScriptedProvider(
      'scripted:test',
      scenario([
        { role: 'qa', action: 'write_tests', reply: 'used' },
        { role: 'qa', action: 'write_bug_report', reply: 'spare' },
      ]),
    );
    await provider.complete(request('qa', 'write_tests'));
    assert.deepEqual(
      provider.unused().map((r) => r.action),
      ['write_bug_report'],
    );
  });
});

describe('scenario files', () => {
  after(removeTempDirs);

  const write = async (name: string, text: string): Promise<string> => {
    const file = path.join(await tempDir('sopworks-scenario-'), name);
    await fs.writeFile(file, text);
    return file;
  };

  it('loads the shipped demo scenario', async () => {
    const loaded = await loadScenario(DEMO);
    assert.ok(loaded.replies.length > 0);
    assert.ok(loaded.replies.every((r) => r.role && r.action));
  });

  it('loads a YAML scenario with each reply form', async () => {
    const file = await write(
      's.yaml',
      [
        'spec: a word counter',
        'replies:',
        '  - { role: pm, action: write_prd, json: { a: 1 } }',
        '  - { role: eng, action: write_file, key: src/a.js, code: "x()", lang: js }',
        '  - { role: qa, action: review, reply: plain text }',
      ].join('\n'),
    );
    const loaded = await loadScenario(file);
    assert.equal(loaded.spec, 'a word counter');
    assert.deepEqual(loaded.replies.map(replyText), ['{\n  "a": 1\n}', '```js\nx()\n```', 'plain text']);
  });

  it('loads a JSON scenario', async () => {
    const file = await write('s.json', JSON.stringify({ replies: [{ role: 'pm', action: 'write_prd', reply: 'hi' }] }));
    assert.deepEqual((await loadScenario(file)).replies, [{ role: 'pm', action: 'write_prd', reply: 'hi' }]);
  });

  it('refuses a missing file, naming it', async () => {
    const file = path.join(await tempDir('sopworks-scenario-'), 'nope.yaml');
    await rejectsWithCode(
      loadScenario(file),
      'SCENARIO_INVALID',
      new RegExp(`Cannot read scenario file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOENT`),
    );
  });

  it('refuses malformed YAML, naming the file', async () => {
    const file = await write('bad.yaml', 'replies:\n  - role: pm\n    action: [unclosed\n');
    await rejectsWithCode(loadScenario(file), 'SCENARIO_INVALID', /bad\.yaml is not valid YAML/);
  });

  it('refuses malformed JSON, naming the file', async () => {
    const file = await write('bad.json', '{"replies": [');
    await rejectsWithCode(loadScenario(file), 'SCENARIO_INVALID', /bad\.json is not valid JSON/);
  });

  it('refuses an entry with both json and code, naming the file and the entry path', async () => {
    const file = await write(
      'both.yaml',
      ['replies:', '  - { role: pm, action: write_prd, reply: ok }', '  - { role: eng, action: write_file, json: { a: 1 }, code: "x()" }'].join('\n'),
    );
    await rejectsWithCode(
      loadScenario(file),
      'SCENARIO_INVALID',
      /both\.yaml does not match the scenario format/,
      /replies\.1: give exactly one of reply, json or code \(found json, code\)/,
    );
  });

  it('refuses an entry with no reply at all and an unknown key', async () => {
    const file = await write('empty.yaml', 'replies:\n  - { role: pm, action: write_prd }\n  - { role: pm, action: x, reply: y, colour: red }\n');
    await rejectsWithCode(loadScenario(file), 'SCENARIO_INVALID', /replies\.0: give exactly one .*found none/, /replies\.1: .*colour/);
  });

  it('refuses a scenario without replies', async () => {
    await rejectsWithCode(loadScenario(await write('none.yaml', 'spec: hi\nreplies: []\n')), 'SCENARIO_INVALID', /replies: /);
  });
});

describe('replyText', () => {
  it('wraps code in a fence tagged with lang, ending the content with a newline', () => {
    assert.equal(replyText({ role: 'r', action: 'a', code: 'print(1)', lang: 'python' }), '```python\nprint(1)\n```');
    assert.equal(replyText({ role: 'r', action: 'a', code: 'x\n' }), '```\nx\n```');
  });

  it('sends reply text as is and json as JSON text', () => {
    assert.equal(replyText({ role: 'r', action: 'a', reply: '  raw  ' }), '  raw  ');
    assert.deepEqual(JSON.parse(replyText({ role: 'r', action: 'a', json: { approved: true, issues: [] } })), { approved: true, issues: [] });
  });
});
