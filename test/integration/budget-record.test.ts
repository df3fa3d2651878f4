/**
 * Budgets stop a run before it overspends (exit 3) and `resume` continues it with a new limit; a run
 * recorded against a real OpenAI-compatible endpoint replays offline to the same repository.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { Scenario } from '../../src/capabilities/model/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { startFakeOpenAI } from '../helpers/openai-server.ts';
import { DEMO } from '../helpers/paths.ts';
import { onlyWhenAsked } from '../helpers/run-company.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const tree = async (project: string) => (await exec('git', ['rev-parse', 'HEAD^{tree}'], { cwd: project })).stdout.trim();
const PRICES = { SOPWORKS_PRICE_INPUT: '1', SOPWORKS_PRICE_OUTPUT: '2' };
const runRecord = async (project: string) => JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8'));

describe('budgets', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('stops before the budget is crossed (exit 3), keeps what was made, and resumes with a higher budget', async () => {
    const reference = await tempDir();
    assert.equal((await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', reference], { cwd: reference })).code, 0);

    const out = await tempDir();
    const project = path.join(out, 'wordfreq');
    const first = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--budget', '0.03'], { cwd: out, env: PRICES });
    assert.equal(first.code, 3, first.stdout + first.stderr);
    // It names the file and the file's step that the budget stopped (several files are under way at once).
    assert.match(
      first.stdout,
      /Outcome\s+budget-exhausted — engineer stopped before step "\w+": [\w./-]+, step "\w+": The budget is spent: \$0\.\d{4} of \$0\.0300 used/,
    );
    const spent = (await runRecord(project)).usage.total.costUsd;
    assert.ok(spent <= 0.03, `spent ${spent} of 0.03: never over`);
    const { stdout: log } = await exec('git', ['log', '--format=%s'], { cwd: project });
    assert.match(log, /docs: task graph of 7 files/, 'everything before the stop is committed');

    const again = await sopworks(['resume', project], { cwd: out, env: PRICES });
    assert.equal(again.code, 3, 'the same budget stops it again at once');

    const resumed = await sopworks(['resume', project, '--budget', '1'], { cwd: out, env: PRICES });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.equal(await tree(project), await tree(path.join(reference, 'wordfreq')));
    const record = await runRecord(project);
    assert.equal(record.outcome, 'done');
    assert.deepEqual(record.budget, { usd: 1, tokens: null });
    assert.equal(record.usage.total.calls, 27, 'no call was paid twice');
  });

  it('bounds the tokens of a run with --max-tokens, for models without a price', async () => {
    const out = await tempDir();
    const result = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--max-tokens', '6000'], { cwd: out });
    assert.equal(result.code, 3, result.stdout + result.stderr);
    assert.match(result.stdout, /The token budget is spent: \d+ of 6000 tokens used/);
    const total = (await runRecord(path.join(out, 'wordfreq'))).usage.total;
    assert.ok(total.promptTokens + total.completionTokens <= 6000);
  });

  it('refuses a dollar budget when the model has no known price, before writing anything', async () => {
    const out = await tempDir();
    const result = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--budget', '5'], { cwd: out });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--budget needs the price of the model/);
    assert.match(result.stderr, /SOPWORKS_PRICE_INPUT/);
    assert.deepEqual(await fs.readdir(out), []);
  });

  it('names a bad --budget', async () => {
    const out = await tempDir();
    const result = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--budget', 'lots'], { cwd: out });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--budget: must be US dollars greater than 0, got "lots"/);
  });
});

describe('record and replay', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('records a run against an OpenAI-compatible server and replays it offline to the same tree', async () => {
    // The demo's replies, served in the order the company asks for them (a sequential run is deterministic).
    const scripted = Scenario.parse(parse(await fs.readFile(DEMO, 'utf8')));
    const seed = await tempDir();
    const seedRecording = path.join(seed, 'seed.yaml');
    // One file at a time, so the company asks in the same order in both runs (the fake server answers in order).
    assert.equal((await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', seed, '--record', seedRecording, '--concurrency', '1'], { cwd: seed })).code, 0);
    const inCallOrder = Scenario.parse(parse(await fs.readFile(seedRecording, 'utf8'))).replies.map((r) => r.reply!);
    assert.equal(inCallOrder.length, scripted.replies.filter((r) => !onlyWhenAsked(r)).length);

    const server = await startFakeOpenAI({ replies: inCallOrder.map((content) => ({ content, usage: { prompt_tokens: 100, completion_tokens: 20 } })) });
    try {
      const out = await tempDir();
      const recording = path.join(out, 'recorded.yaml');
      const live = await sopworks(['run', scripted.spec!, '--name', 'wordfreq', '--out', out, '--record', recording, '--concurrency', '1'], {
        cwd: out,
        env: { OPENAI_BASE_URL: server.url, SOPWORKS_MODEL: 'test-model' },
      });
      assert.equal(live.code, 0, live.stdout + live.stderr);
      assert.equal(server.chatRequests().length, 27);

      const recorded = Scenario.parse(parse(await fs.readFile(recording, 'utf8')));
      assert.equal(recorded.spec, scripted.spec);
      assert.equal(recorded.replies.length, 27);

      const replayDir = await tempDir();
      const replayed = await sopworks(['run', '--llm', `scripted:${recording}`, '--out', replayDir], { cwd: replayDir });
      assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
      assert.equal(await tree(path.join(replayDir, 'wordfreq')), await tree(path.join(out, 'wordfreq')));
    } finally {
      await server.close();
    }
  });
});
