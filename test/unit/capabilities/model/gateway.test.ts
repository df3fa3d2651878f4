/** The gateway on the scripted provider: re-asks with the validation error, bounded; records every exchange. */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Gateway, type GatewayEvent, type OutputSpec } from '../../../../src/capabilities/model/gateway.ts';
import { PromptRenderer } from '../../../../src/capabilities/model/prompt-renderer.ts';
import { ScriptedProvider } from '../../../../src/capabilities/model/providers/scripted.ts';
import type { Scenario } from '../../../../src/capabilities/model/scenario.ts';
import { UsageMeter } from '../../../../src/capabilities/model/usage.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import { Review } from '../../../../src/documents/index.ts';
import { loadRoleProfile } from '../../../../src/engine/roles/index.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { AppendLog, readAppendLog } from '../../../../src/ground/files/index.ts';
import { ROLES } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const call = { role: 'engineer', action: 'review_file', key: 'src/a.js' };

/** A roles folder with the real shared templates and one small step template, so the test does not follow edits to the shipped prompts. */
async function rolesFolder(): Promise<string> {
  const dir = await tempDir();
  await fs.cp(path.join(ROLES, '_shared'), path.join(dir, '_shared'), { recursive: true });
  await fs.mkdir(path.join(dir, 'engineer'));
  await fs.copyFile(path.join(ROLES, 'engineer', 'role.yaml'), path.join(dir, 'engineer', 'role.yaml'));
  await fs.writeFile(path.join(dir, 'engineer', 'review_file.hbs'), 'Review `{{key}}` for the task: {{task.description}}\n\n```\n{{draft.content}}```\n');
  return dir;
}

async function setup(replies: Scenario['replies'], maxRepairs = 2) {
  const roles = await rolesFolder();
  const provider = new ScriptedProvider('scripted:test', { replies });
  const meter = new UsageMeter();
  const logFile = path.join(await tempDir(), 'exchanges.jsonl');
  const exchanges = await AppendLog.open(logFile, { flush: 'each' });
  const events: GatewayEvent[] = [];
  const gateway = new Gateway({
    provider,
    renderer: new PromptRenderer(roles, markdownRenderers),
    meter,
    exchanges,
    maxRepairs,
    onEvent: (e) => events.push(e),
  });
  const profile = await loadRoleProfile(roles, 'engineer');
  const variables = {
    key: 'src/a.js',
    task: { file: 'src/a.js', description: 'write a', dependsOn: [] },
    draft: { path: 'src/a.js', content: 'export const a = 1;\n' },
  };
  const ask = (output: OutputSpec = { kind: 'json', name: 'Review', schema: Review }) => gateway.ask({ call, profile, variables, output, occurrence: 0 });
  return { ask, meter, exchanges, logFile, events };
}

describe('gateway', () => {
  after(removeTempDirs);

  it('re-asks an invalid reply with the validation error, then accepts the valid one', async () => {
    const { ask, meter, exchanges, logFile, events } = await setup([
      { role: 'engineer', action: 'review_file', key: 'src/a.js', reply: 'Looks good to me!' },
      { role: 'engineer', action: 'review_file', key: 'src/a.js', json: { approved: 'yes', issues: [] } },
      { role: 'engineer', action: 'review_file', key: 'src/a.js', json: { approved: true, issues: [] } },
    ]);
    assert.deepEqual(await ask(), { approved: true, issues: [] });
    await exchanges.close();
    const { records } = await readAppendLog(logFile);
    const attempts = records as { attempt: number; ok: boolean; error: string | null; messages: { role: string; content: string }[] }[];
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.ok]),
      [
        [1, false],
        [2, false],
        [3, true],
      ],
    );
    assert.match(attempts[0]!.error!, /contains no JSON object/);
    // A re-ask is the first request with the last error and the rejected reply appended — not a growing conversation —
    // and the errors of the attempts before it: shown only the last, a model flips back to the answer refused before.
    const first = attempts[0]!.messages;
    const last = attempts[2]!.messages;
    assert.equal(last.length, 2);
    assert.equal(last[0]!.content, first[0]!.content);
    assert.ok(last[1]!.content.startsWith(first[1]!.content.trimEnd()), 'the re-ask keeps the first prompt as its prefix');
    assert.match(
      last[1]!.content,
      /## Your previous reply could not be used\nthe JSON does not match the required schema:\n- approved: Invalid input: expected boolean/,
    );
    assert.match(last[1]!.content, /It was:\n~~~~\n\{\n  "approved": "yes",\n  "issues": \[\]\n\}\n~~~~/);
    assert.match(last[1]!.content, /Earlier replies were refused for these too; avoid them all:\n- the reply contains no JSON object/);
    assert.equal(last[1]!.content.split('Looks good to me!').length, 1, 'an earlier reply itself is not sent again, only its error');
    assert.doesNotMatch(attempts[1]!.messages[1]!.content, /replies before it/, 'the first re-ask has nothing earlier to show');
    assert.equal(meter.total().repairs, 2);
    assert.deepEqual(
      events.map((e) => e.kind),
      ['call-start', 'call-repair', 'call-repair', 'call-end'],
    );
  });

  it('gives up after the bound with an error naming the call and the last problem', async () => {
    const { ask, exchanges, meter } = await setup(
      [
        { role: 'engineer', action: 'review_file', key: 'src/a.js', reply: 'no' },
        { role: 'engineer', action: 'review_file', key: 'src/a.js', reply: 'still no' },
      ],
      1,
    );
    await assert.rejects(ask(), (error: unknown) => {
      assert.ok(SopworksError.isInstance(error));
      assert.equal(error.code, 'REPLY_INVALID');
      assert.match(error.message, /\{role: engineer, action: review_file, key: src\/a\.js\} was still invalid after 2 attempts/);
      return true;
    });
    await exchanges.close();
    assert.equal(meter.records[0]!.ok, false);
  });

  it('takes code from a fenced block and counts tokens when the provider reports none', async () => {
    const { ask, exchanges, meter } = await setup([{ role: 'engineer', action: 'review_file', key: 'src/a.js', code: 'export const a = 2;', lang: 'js' }]);
    assert.deepEqual(await ask({ kind: 'code', path: 'src/a.js' }), { path: 'src/a.js', content: 'export const a = 2;\n' });
    await exchanges.close();
    assert.equal(meter.records[0]!.counted, true);
    assert.ok(meter.records[0]!.promptTokens > 50);
  });

  it('puts the output format and the schema after the request', async () => {
    const { ask, exchanges, logFile } = await setup([{ role: 'engineer', action: 'review_file', key: 'src/a.js', json: { approved: true, issues: [] } }]);
    await ask();
    await exchanges.close();
    const { records } = await readAppendLog(logFile);
    const user = (records[0] as { messages: { content: string }[] }).messages[1]!.content;
    // The role's part (its identity), then the request: the documents a run's requests open with are the run's views (none here).
    assert.match(user, /^# Your part\nYou are Carol, the Engineer\.\n[\s\S]*\n\nReview `src\/a\.js`/);
    assert.match(user, /## Output format\nReply with a single JSON object/);
    assert.match(user, /"required": \[\s*"approved",\s*"issues"\s*\]/);
  });
});
