/**
 * `npm run bench:cache -- RUN...`: a run's requests through each provider's cache rules, read from its
 * exchange log — a capable model's recorded run replayed with this version's prompts, and a project folder
 * whose log says what the endpoint reported as cached.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import type { RunCacheFigures } from '../../bench/prompt-cache.ts';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const bench = (args: string[]) => exec(process.execPath, ['--import', 'tsx', 'bench/prompt-cache.ts', ...args], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });

describe('the prompt cache figures', function () {
  this.timeout(300_000);
  after(removeTempDirs);

  it("gives every provider's cacheable share and effective input tokens for a recorded run", async () => {
    const json = path.join(await tempDir(), 'figures.json');
    const { stdout } = await bench(['test/fixtures/recorded/mdtable-node.yaml', '--json', json]);
    const [run] = JSON.parse(await fs.readFile(json, 'utf8')) as RunCacheFigures[];
    assert.equal(run!.run, 'mdtable-node');
    assert.equal(run!.outcome, 'done');
    assert.equal(run!.requests, 27);
    assert.deepEqual(
      run!.rules.map((r) => r.rule),
      [
        'openai-gpt-4o',
        'openai-gpt-4.1',
        'openai-gpt-5',
        'anthropic-automatic',
        'anthropic-breakpoints',
        'gemini',
        'deepseek',
        'vllm',
        'llama.cpp-1',
        'llama.cpp-4',
        'local-per-role',
      ],
    );
    for (const rule of run!.rules) {
      assert.ok(rule.read >= 0 && rule.read <= rule.promptTokens, `${rule.rule} reads within the prompts`);
      assert.equal(rule.share, rule.read / rule.promptTokens);
    }
    const byId = new Map(run!.rules.map((r) => [r.rule, r]));
    // One OpenAI cache, three prices: the share is the same, the cheaper the cached token the fewer effective tokens.
    assert.equal(byId.get('openai-gpt-4o')!.share, byId.get('openai-gpt-5')!.share);
    assert.ok(byId.get('openai-gpt-5')!.effective <= byId.get('openai-gpt-4o')!.effective);
    // A server of one's own caches without a minimum: some of a run's prompts are always shared (the system prompt).
    assert.ok(byId.get('vllm')!.read > 0);
    assert.ok(byId.get('vllm')!.effective === byId.get('vllm')!.promptTokens - byId.get('vllm')!.read, 'a free cache costs the uncached tokens');
    assert.match(stdout, /^mdtable-node \(done\): 27 requests, \d+ prompt tokens counted here \(\d+ as reported, 0 of them cached\)$/m);
    assert.match(stdout, /^\| OpenAI, gpt-5 \(0\.1×\) \| \d+ \| 0 \| \d+\.\d% \| \d+ \| (0\.0%|−\d+\.\d%) \| \d+ \| −\d+\.\d% \|$/m);
    // No layout beats the floor: only the lines shown for the first time uncached.
    for (const rule of run!.rules) assert.ok(rule.floor <= rule.effective, `${rule.rule}: its floor is below what it costs`);
    assert.match(stdout, /^\| Anthropic, automatic \(0\.1×, writes 1\.25×\) \| \d+ \| \d+ \|/m);
  });

  it("replays a change's recorded scenario on the repository it changed, and asks for that repository when not named", async () => {
    const scenario = 'test/fixtures/recorded/redact-change.yaml';
    const json = path.join(await tempDir(), 'figures.json');
    await bench([scenario, '--repo', 'test/fixtures/repos/pinojs-redact', '--json', json]);
    const [run] = JSON.parse(await fs.readFile(json, 'utf8')) as RunCacheFigures[];
    const replies = (parse(await fs.readFile(path.join(ROOT, scenario), 'utf8')) as { replies: unknown[] }).replies;
    assert.equal(run!.run, 'redact-change');
    assert.equal(run!.outcome, 'done');
    // Its recording has no re-ask: one request per recorded reply.
    assert.equal(run!.requests, replies.length);
    assert.ok(run!.rules.every((r) => r.promptTokens > 0 && r.read <= r.promptTokens));

    const refused = await bench([scenario]).then(
      () => null,
      (error: { stderr: string }) => error.stderr,
    );
    assert.match(refused ?? '', /redact-change\.yaml is a change's scenario: name the repository it changed with --repo DIR/);
  });

  it("reads a project folder's exchange log, with the cached tokens its endpoint reported", async () => {
    const project = path.join(await tempDir(), 'run');
    await fs.mkdir(path.join(project, '.sopworks'), { recursive: true });
    const messages = (step: string) => [
      { role: 'system', content: 'You are Carol, the Engineer.' },
      { role: 'user', content: `${'The design, shared by every step. '.repeat(400)}\n\n${step}` },
    ];
    const record = (n: number, step: string, cached: number) => ({
      role: 'engineer',
      action: 'write_file',
      key: `f${n}.py`,
      occurrence: 0,
      attempt: 1,
      messages: messages(step),
      reply: 'print(1)',
      usage: { promptTokens: 3000, completionTokens: 5, cachedPromptTokens: cached },
      usageCounted: false,
      ok: true,
      ms: 1000,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, n * 10)).toISOString(),
    });
    const log = [record(0, 'Write f0.py.', 0), record(1, 'Write f1.py.', 2816)].map((r) => JSON.stringify(r)).join('\n');
    await fs.writeFile(path.join(project, '.sopworks', 'exchanges.jsonl'), `${log}\n`);
    await fs.writeFile(path.join(project, '.sopworks', 'run.json'), JSON.stringify({ outcome: 'done' }));
    const json = path.join(await tempDir(), 'figures.json');
    await bench([project, '--json', json]);
    const [run] = JSON.parse(await fs.readFile(json, 'utf8')) as RunCacheFigures[];
    assert.deepEqual(run!.reported, { promptTokens: 6000, cachedPromptTokens: 2816 });
    const openai = run!.rules.find((r) => r.rule === 'openai-gpt-4o')!;
    // The second request shares the system prompt and the design (some 2,800 tokens) with the first, sent 10 s before.
    assert.ok(openai.read >= 2048 && openai.read % 128 === 0, `read ${openai.read}`);
    assert.equal(openai.effective, Math.round(openai.promptTokens - openai.read / 2));
  });
});
