/**
 * A resumed run makes progress: a step that failed because every reply was invalid, or because the
 * model looped, is asked again (the failed attempts stay in the log, never replayed as answers), with a
 * person's `--hint` in its prompt; a run its SOP concluded failed is refused, saying why.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type ChatMessage,
  type Completion,
  type CompletionRequest,
  type Provider,
  type Scenario,
  ScriptedProvider,
} from '../../src/capabilities/model/index.ts';
import { loadCompany, resumableRecord, resumeRun } from '../../src/company/index.ts';
import { checkContinuable } from '../../src/engine/run/index.ts';
import { SopworksError } from '../../src/ground/errors.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { ROLES, SOPS } from '../helpers/paths.ts';
import { demoScenario, replaceReply, runScenario } from '../helpers/run-company.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

/** Records what was sent; forwards skipUsed so a resumed script carries on where it stopped. */
class RecordingProvider implements Provider {
  readonly sent: { action: string; messages: ChatMessage[] }[] = [];
  constructor(private readonly inner: ScriptedProvider) {}
  get label() {
    return this.inner.label;
  }
  complete(request: CompletionRequest): Promise<Completion> {
    this.sent.push({ action: request.call.action, messages: request.messages.map((m) => ({ ...m })) });
    return this.inner.complete(request);
  }
  skipUsed(used: Map<string, number>): void {
    this.inner.skipUsed(used);
  }
}

/** The demo scenario with `bad` replies to the PM's write_prd before its good one. */
async function prdFailsFirst(bad: string[]): Promise<Scenario> {
  const scenario = await demoScenario();
  const at = scenario.replies.findIndex((r) => r.action === 'write_prd');
  const invalid = bad.map((text) => ({ role: 'product-manager', action: 'write_prd', text }));
  return { ...scenario, replies: [...scenario.replies.slice(0, at), ...invalid, ...scenario.replies.slice(at)] };
}

async function resume(project: string, scenario: Scenario, guidance: string | null = null) {
  const provider = new RecordingProvider(new ScriptedProvider('scripted:test', scenario));
  const result = await resumeRun({
    projectDir: project,
    record: await resumableRecord(project),
    company: await loadCompany(SOPS, ROLES),
    provider,
    maxRepairs: 2,
    guidance,
  });
  return { result, provider };
}

describe('resume after a failed step', function () {
  this.timeout(60_000);
  after(removeTempDirs);

  it('asks the model again for a step whose every reply was invalid, with the hint in its prompt, and finishes', async () => {
    const scenario = await prdFailsFirst(['not json', 'still not json', 'no JSON here either']);
    const first = await runScenario(scenario);
    assert.equal(first.result.outcome, 'failed');
    assert.match(first.result.reason, /write_prd.*still invalid after 3 attempts/);

    const { result, provider } = await resume(first.project, scenario, 'Reply with the JSON object only.');
    assert.equal(result.outcome, 'done', result.reason);
    const asked = provider.sent.filter((s) => s.action === 'write_prd');
    assert.equal(asked.length, 1, 'the step was asked again, once, and its answer used');
    assert.match(asked[0]!.messages[1]!.content, /## Guidance from a person[\s\S]*Reply with the JSON object only\./);
    assert.ok(
      provider.sent.filter((s) => s.action !== 'write_prd').every((s) => !s.messages[1]!.content.includes('Guidance from a person')),
      'only the failed step gets the hint',
    );

    const { records } = await readAppendLog(path.join(first.project, '.sopworks', 'exchanges.jsonl'));
    const prd = (records as { action: string; attempt: number; ok: boolean }[]).filter((r) => r.action === 'write_prd');
    assert.deepEqual(
      prd.map((r) => [r.attempt, r.ok]),
      [
        [1, false],
        [2, false],
        [3, false],
        [1, true],
      ],
      'the failed attempts stay in the log',
    );
  });

  it('asks again a call the loop guard stopped, instead of replaying the looping reply', async () => {
    let scenario = await demoScenario();
    const bad = scenario.replies.find((r) => r.action === 'write_tasks')!;
    scenario = replaceReply(scenario, { role: 'architect', action: 'fix_tasks' }, { ...bad, action: 'fix_tasks' });
    scenario = { ...scenario, replies: [...scenario.replies, { ...bad, action: 'fix_tasks' }] };
    const first = await runScenario(scenario);
    assert.match(first.result.reason, /twice in a row/);
    // The model, asked again, answers the correction properly this time.
    const good = (await demoScenario()).replies.find((r) => r.action === 'fix_tasks')!;
    const { result, provider } = await resume(first.project, { ...scenario, replies: [...scenario.replies, good] }, 'List package.json as a task.');
    assert.deepEqual(provider.sent.filter((s) => s.action === 'fix_tasks').length, 1);
    assert.doesNotMatch(result.reason, /twice in a row/);
    assert.equal(result.outcome, 'done', result.reason);
  });

  it('refuses to resume a run its SOP concluded failed, saying why and what helps instead', async () => {
    const scenario = replaceReply(
      await demoScenario(),
      { role: 'engineer', action: 'fix_file' },
      {
        role: 'engineer',
        action: 'fix_file',
        key: 'src/tokenize.js',
        code: 'export function tokenize(text) {\n  return text.split(/\\s+/).filter((word) => word.length > 0);\n}\n',
        lang: 'js',
      },
    );
    const { result, project } = await runScenario(scenario);
    assert.equal(result.outcome, 'failed');
    await assert.rejects(checkContinuable(project), (error: unknown) => {
      assert.ok(SopworksError.isInstance(error));
      assert.equal(error.code, 'NOT_RESUMABLE');
      assert.match(error.message, /cannot be continued\. The qa's SOP concluded the run failed \(the same tests failed twice in a row/);
      assert.match(error.hint ?? '', /Start a new run/);
      return true;
    });
    const before = await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8');
    const cli = await sopworks(['resume', project], { cwd: await tempDir() });
    assert.equal(cli.code, 2, cli.stdout + cli.stderr);
    assert.match(cli.stderr, /cannot be continued/);
    assert.doesNotMatch(cli.stdout + cli.stderr, /stronger model.*resume|Continue it with/);
    assert.equal(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8'), before, 'nothing was written');
  });
});
