/**
 * The whole company on the local engine (`--llm local`), through the real CLI, with a real GGUF model of
 * random weights: it writes gibberish, so the run must end with a clear outcome within its bounds — no
 * crash, no hang, nothing written outside the project — and bad model input must exit 2 before anything
 * is written.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, ROOT } from '../helpers/paths.ts';
import { cleanEnv, runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const MODEL = path.join(ROOT, 'test', 'fixtures', 'models', 'llama-2-tiny-random.gguf');

/**
 * The limits are the defaults, planned for the model's context; sampled with a fixed seed, the random
 * model gets past the Product Manager here, so a commit carries its text.
 */
const SAMPLED = { SOPWORKS_TEMPERATURE: '1', SOPWORKS_LOCAL_SEED: '5' };

/** Commit subjects of a repository, newest first. */
const subjects = (repo: string): string[] => execFileSync('git', ['log', '--format=%s'], { cwd: repo, encoding: 'utf8' }).trim().split('\n');

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('the company on a local model (--llm local, tiny random model)', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('ends a run with the default limits with a clear outcome that is no context overflow, writing only its project, commit subjects of at most 72 characters; it replays from its recording, and resume reopens the same model', async () => {
    const cwd = await tempDir();
    const home = path.join(cwd, 'home');
    await fs.mkdir(home);
    const env = { ...SAMPLED, HOME: home, XDG_CACHE_HOME: path.join(home, '.cache') };
    const run = await runCli(
      [
        'run',
        '--llm',
        `local:${MODEL}`,
        '--out',
        'out',
        '--name',
        'words',
        '--max-tokens',
        '500000',
        '--record',
        'rec.yaml',
        'a CLI that counts words in text files',
      ],
      { cwd, env },
    );

    assert.equal(run.code, 1, `outcome failed (exit 1)\n${run.stdout}\n${run.stderr}`);
    assert.doesNotMatch(run.stderr, /\n\s+at .*\(/, 'no stack trace');
    assert.match(run.stderr, /local model: .*llama-2-tiny-random\.gguf \(2 MB, llama, chat template \w+\) on the CPU, \d+ threads?, context 4096 tokens/);
    assert.match(
      run.stderr,
      /limits for a context of 4096 tokens: replies up to (\d+) tokens, lists up to \d items?, strings up to \d+ characters, files shown within the room each prompt has left \(the largest prompt: [\w-]+\/\w+, \d+ tokens before its files\)/,
    );
    assert.match(run.stdout, /Outcome\s+failed — /);
    assert.doesNotMatch(run.stdout, /context (length exceeded|window)|exceeds the local model's context/, 'no step overflowed the context');
    assert.match(run.stdout, /\$0\.00/, 'a local model costs nothing unless a price is set');

    const project = path.join(cwd, 'out', 'words');
    const record = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8')) as Record<string, any>;
    assert.equal(record.outcome, 'failed');
    // A random-weights model writes nonsense: the run fails somewhere — a reply cut off at its limit (never
    // taken, however it would parse), or a check its SOP bounds (a task graph still invalid) — and says where,
    // with no context overflow. Which step it is depends on the prompts' wording, so the outcome is read, not fixed.
    const outcome = /Outcome\s+failed — (.+)/.exec(run.stdout)?.[1];
    assert.ok(outcome && /failed in step|concluded the run failed|still invalid/.test(run.stdout), run.stdout);
    const commits = subjects(project);
    for (const subject of commits) assert.ok(Array.from(subject).length <= 72 && !/[\u0000-\u001f]/.test(subject), subject);
    assert.deepEqual(record.llm, { kind: 'local', model: MODEL });
    assert.ok(record.usage.total.calls >= 1 && record.usage.total.completionTokens > 0);
    const exchanges = (await fs.readFile(path.join(project, '.sopworks', 'exchanges.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.ok(exchanges.length >= 1);
    assert.ok(
      exchanges.every((e) => e.usageCounted === false),
      'usage comes from the engine, not the bundled tokenizer',
    );

    assert.deepEqual((await fs.readdir(cwd)).sort(), ['home', 'out', 'rec.yaml'], 'nothing beside the output folder and the recording');
    assert.deepEqual(await filesUnder(home), [], 'nothing written in the home folder or the cache');
    assert.deepEqual(await fs.readdir(path.join(cwd, 'out')), ['words']);

    // The recording replays offline to the same outcome, at the same step (a scripted run: in this process).
    const replay = await sopworks(['run', '--llm', 'scripted:rec.yaml', '--out', 'replay', '--name', 'words'], { cwd, env });
    assert.equal(replay.code, 1, replay.stderr);
    // A recording keeps the replies, not how they ended: replayed, a cut-off reply is refused by the parser
    // (and said so); any other failure comes again, word for word.
    const cutOff = (stdout: string) => /Outcome\s+(failed — .* was still invalid after \d+ attempts: the reply was cut off)/.exec(stdout)?.[1];
    if (/cut off at the output limit/.test(outcome!)) assert.equal(cutOff(replay.stdout), cutOff(run.stdout), replay.stdout);
    else assert.equal(/Outcome\s+failed — (.+)/.exec(replay.stdout)?.[1], outcome, replay.stdout);

    // A step that failed is asked again on resume, with the same model (the run's record names it).
    const resumed = await runCli(['resume', project], { cwd, env });
    // A step that failed (a reply cut off) is asked again, with the model the record names; a failure its
    // SOP concluded cannot be continued, and resume says so (exit 2) before loading anything.
    const failedRole = /^(\S+) failed in step/.exec(outcome!)?.[1];
    if (failedRole) {
      assert.equal(resumed.code, 1, `${resumed.stdout}\n${resumed.stderr}`);
      assert.match(resumed.stderr, /local model: .*llama-2-tiny-random\.gguf/);
      assert.match(resumed.stdout, new RegExp(`^${failedRole}\\s+… \\w+`, 'm'), resumed.stdout);
    } else {
      assert.equal(resumed.code, 2, `${resumed.stdout}\n${resumed.stderr}`);
      assert.match(resumed.stderr, /cannot be continued\. The \S+'s SOP concluded the run failed/);
    }
  });

  it('honours --max-time: the reply in flight is stopped at the limit, the run ends timed-out (exit 124) and resume continues it with the same model', async () => {
    const cwd = await tempDir();
    // A large output limit and long strings (set, so not planned): the random model's PRD runs on past the time limit.
    // 2,500 tokens, not more: with the PM's first prompt (about 1,350 tokens on this model's tokenizer) it must fit
    // the 4,096-token context, or the request is refused before it is sent.
    const env = {
      SOPWORKS_MAX_OUTPUT_TOKENS: '2500',
      SOPWORKS_MAX_CONTINUATIONS: '0',
      SOPWORKS_LOCAL_MAX_STRING_CHARS: '10000',
      SOPWORKS_MODELS_DIR: path.join(cwd, 'models'),
    };
    // Under a terminal (script(1) gives the run a pseudo-terminal), where the status line shows the reply's progress.
    const command = [process.execPath, BIN, 'run', '--llm', `local:${MODEL}`, '--out', 'out', '--name', 'late', '--max-time', '3s', 'a todo app'];
    const run = spawnSync('script', ['-qefc', command.map((a) => `'${a}'`).join(' '), '/dev/null'], {
      cwd,
      env: cleanEnv(env),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const screen = run.stdout;
    assert.equal(run.status, 124, screen);
    assert.match(screen, /⋯ \d+:\d\d · [\d,]+ tokens( · cost \S+)? · product-manager write_prd: reading the prompt \(\d+ tokens\), 0:0\d/);
    assert.match(screen, /⋯ \d+:\d\d · [\d,]+ tokens( · cost \S+)? · product-manager write_prd: writing \d+ tokens?(, [\d.]+ tokens\/s)?, \d:\d\d/);
    assert.match(screen, /The time limit \(--max-time 3s\) is reached: stopping the steps in flight now/);
    assert.match(screen, /Outcome\s+timed-out — the time limit \(--max-time 3s\) was reached; the steps in flight were stopped/);
    const project = path.join(cwd, 'out', 'late');
    const record = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8')) as Record<string, any>;
    assert.equal(record.outcome, 'timed-out');
    // The limit is counted from when the session executes the run, run.json's wallMs from when the company
    // starts it, a moment later (2,995 ms once under load, 2,861 ms once in a full suite on two cores, where
    // the company's start lagged the session's by 139 ms): the run stops at the limit, not long before it.
    assert.ok(record.wallMs >= 2500 && record.wallMs < 3000 + 4000, `the run ended ${record.wallMs} ms after it started`);

    // Resumed with room for its re-asks: a reply cut off at 3,000 tokens is asked again with the error added to
    // its prompt, which would no longer fit the 4,096-token context beside 3,000 more (a clear failure, not this test's).
    const resumed = await runCli(['resume', project, '--max-time', '1h'], { cwd, env: { ...env, SOPWORKS_MAX_OUTPUT_TOKENS: '2000' } });
    assert.match(resumed.stderr, /local model: .*llama-2-tiny-random\.gguf/);
    assert.doesNotMatch(resumed.stdout, /Outcome\s+timed-out|context length exceeded/);
    assert.match(resumed.stdout, /Outcome\s+failed — /);
    const after = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8')) as Record<string, any>;
    assert.equal(after.resumedAt.length, 1);
    assert.deepEqual(after.llm, { kind: 'local', model: MODEL });
  });

  it('stops the generation in flight at the second Ctrl-C: outcome interrupted, no reply recorded', async () => {
    const cwd = await tempDir();
    // A large output limit (set, so not planned): the random model's PRD runs on for seconds. 2,500 tokens, not
    // more: beside the PM's first prompt (about 1,150 tokens on this model) it must fit the 4,096-token context.
    const env = cleanEnv({ SOPWORKS_MAX_OUTPUT_TOKENS: '2500', SOPWORKS_MAX_CONTINUATIONS: '0', SOPWORKS_MODELS_DIR: path.join(cwd, 'models') });
    const child = spawn(process.execPath, [BIN, 'run', '--llm', `local:${MODEL}`, '--out', 'out', '--name', 'stop', 'a todo app'], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let sent = 0;
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (sent === 0 && /… write_prd/.test(stdout)) {
        sent = 1;
        child.kill('SIGINT');
      } else if (sent === 1 && /Stopping after the steps in flight/.test(stdout)) {
        sent = 2;
        child.kill('SIGINT');
      }
    });
    assert.equal(await closed, 130, stdout);
    assert.match(stdout, /Outcome\s+interrupted — stopped by the user \(at once\)/);
    const sopworks = path.join(cwd, 'out', 'stop', '.sopworks');
    const exchanges = await fs.readFile(path.join(sopworks, 'exchanges.jsonl'), 'utf8').catch(() => '');
    assert.equal(exchanges.trim(), '', 'the PRD generation was stopped, not waited for');
    const record = JSON.parse(await fs.readFile(path.join(sopworks, 'run.json'), 'utf8')) as { outcome: string };
    assert.equal(record.outcome, 'interrupted');
  });

  it('refuses bad model input with exit 2 before anything is written', async () => {
    const cwd = await tempDir();
    const env = { SOPWORKS_MODELS_DIR: path.join(cwd, 'models') };
    await fs.writeFile(path.join(cwd, 'notes.gguf'), 'these are notes, not a model\n');
    await fs.writeFile(path.join(cwd, 'cut.gguf'), (await fs.readFile(MODEL)).subarray(0, 4096));
    const cases: [string, RegExp, Record<string, string>?][] = [
      [`local:${path.join(cwd, 'missing.gguf')}`, /The model file .*missing\.gguf does not exist/],
      [`local:${path.join(cwd, 'notes.gguf')}`, /notes\.gguf is not a GGUF model file/],
      [`local:${path.join(cwd, 'cut.gguf')}`, /cut\.gguf (is not a readable GGUF model|could not be loaded)[\s\S]*truncated or corrupt/],
      ['local:qwen-nonexistent', /Unknown local model "qwen-nonexistent"/],
      ['local:qwen2.5-coder-7b', /The model qwen2\.5-coder-7b is not in the model cache[\s\S]*sopworks models pull qwen2\.5-coder-7b/],
      ['local', /the model cache \(.*models\) is empty[\s\S]*sopworks models pull qwen2\.5-coder-7b/],
      // A context of a billion tokens: the engine's own estimate of what that needs exceeds any free memory here.
      [
        `local:${MODEL}`,
        /does not fit in memory: the model needs about [\d.]+ GB of RAM with its context, and [\d.]+ GB is free/,
        { SOPWORKS_LOCAL_CONTEXT: '1000000000' },
      ],
    ];
    // Refused before the engine is loaded: in this process; the engine reads the cut file and measures the
    // memory in a child process, as a run does.
    const byEngine = new Set([`local:${path.join(cwd, 'cut.gguf')}`, `local:${MODEL}`]);
    for (const [llm, message, extra] of cases) {
      const cli = byEngine.has(llm) ? runCli : sopworks;
      const result = await cli(['run', '--llm', llm, '--out', 'out', 'a todo app'], { cwd, env: { ...env, ...extra } });
      assert.equal(result.code, 2, `${llm}: ${result.stderr}`);
      assert.match(result.stderr, message, llm);
      assert.doesNotMatch(result.stderr, /\n\s+at .*\(/, 'no stack trace');
    }
    assert.deepEqual((await fs.readdir(cwd)).sort(), ['cut.gguf', 'notes.gguf'], 'no output folder, no model cache');
  });
});
