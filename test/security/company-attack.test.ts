/**
 * End to end, through the CLI as a user runs it: a scripted company whose QA test code attacks the
 * repository; a test command this machine cannot sandbox; a tampered project handed to resume, status
 * and review. Each asserts on the host afterwards (the repository's config, a marker that plain git
 * would create if a planted key ran, the committed report), not only on what sopworks prints.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sopworks } from '../helpers/in-process.ts';
import { DEMO, ROOT } from '../helpers/paths.ts';
import { runCli } from '../helpers/run-cli.ts';
import { BUBBLEWRAP, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exists = (file: string) =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );

/** The demo scenario with QA's test file replaced by `testFile`, written next to the output folder. */
async function attackScenario(dir: string, testFile: string, designEdit: (yaml: string) => string = (y) => y): Promise<string> {
  const demo = await fs.readFile(DEMO, 'utf8');
  const start = demo.indexOf('  - role: qa\n    action: write_tests\n    reply: |\n');
  assert.ok(start >= 0, 'the demo scenario has a write_tests reply');
  const end = demo.indexOf('\n  - role:', start + 10);
  const reply = `  - role: qa\n    action: write_tests\n    reply: |\n      test/wordfreq.test.js\n      \`\`\`js\n${testFile
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n')}\n      \`\`\``;
  const file = path.join(dir, 'attack.yaml');
  await fs.writeFile(file, designEdit(demo.slice(0, start) + reply + demo.slice(end)));
  return file;
}

/** QA's test: appends a config key that would run `touch MARKER` on the user's next `git status`. */
const attackingTest = (project: string, marker: string) => `import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
test('looks like a test', () => {
  const key = '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n';
  try { appendFileSync('.git/config', key); } catch (error) { console.log(String(error)); }
  try { execFileSync('sh', ['-c', 'printf "%s" "$1" >> "$2"', 'sh', key, '${project}/.git/config']); } catch (error) { console.log(String(error)); }
});`;

async function configAndMarkerClean(project: string, marker: string): Promise<void> {
  const config = await fs.readFile(path.join(project, '.git', 'config'), 'utf8');
  assert.doesNotMatch(config, /fsmonitor/);
  spawnSync('git', ['status'], { cwd: project, stdio: 'ignore' });
  assert.equal(await exists(marker), false, 'a planted key ran when the user typed git status');
}

describe('attacks through a whole company run', function () {
  this.timeout(180_000);
  let dir: string;

  before(async () => {
    dir = await tempDir('sopworks-company-attack-');
  });
  after(removeTempDirs);

  it('fallback: QA test code that reaches the repository through sh stops the run as a security violation, undone and reported', async () => {
    const project = path.join(dir, 'out', 'victim');
    const marker = path.join(dir, 'PWNED-fallback');
    const scenario = await attackScenario(dir, attackingTest(project, marker));
    const result = await runCli(['run', '--llm', `scripted:${scenario}`, '--out', path.join(dir, 'out'), '--name', 'victim'], {
      cwd: ROOT,
      env: { SOPWORKS_SANDBOX: 'fallback' },
    });
    const run = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8')) as { outcome: string; reason: string };
    assert.equal(run.outcome, 'failed', result.stdout + result.stderr);
    assert.match(
      run.reason,
      /^security violation in test round 1: the generated code changed what it must never touch — \.git\/config was changed \(restored\)/,
    );
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    await configAndMarkerClean(project, marker);
    const page = execFileSync('git', ['show', 'HEAD:docs/test-reports/round-1.md'], { cwd: project, encoding: 'utf8' });
    assert.match(page, /### SECURITY VIOLATION[\s\S]*\.git\/config was changed \(restored\)/);
  });

  it('bubblewrap: the same attack is refused by the read-only mount and reported; nothing needs undoing', async function () {
    requireSystem(this, BUBBLEWRAP);
    const project = path.join(dir, 'out-bwrap', 'victim');
    const marker = path.join(dir, 'PWNED-bwrap');
    const scenario = await attackScenario(dir, attackingTest(project, marker));
    await runCli(['run', '--llm', `scripted:${scenario}`, '--out', path.join(dir, 'out-bwrap'), '--name', 'victim'], {
      cwd: ROOT,
      env: { SOPWORKS_SANDBOX: 'auto' },
    });
    const run = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8')) as { outcome: string; reason: string };
    assert.doesNotMatch(run.reason ?? '', /security violation/);
    await configAndMarkerClean(project, marker);
    const page = execFileSync('git', ['show', 'HEAD:docs/test-reports/round-1.md'], { cwd: project, encoding: 'utf8' });
    assert.match(page, /filesystem: write refused \(read-only\): \.git\/config/);
    assert.doesNotMatch(page, /SECURITY VIOLATION/);
  });

  it('a Python design without bubblewrap or --allow-unsandboxed is refused when the Design is posted, before QA is paid for', async () => {
    const scenario = await attackScenario(dir, attackingTest('/nowhere', '/nowhere'), (yaml) =>
      yaml.replace(
        '"testCommand": [\n          "node",\n          "--test"\n        ]',
        '"testCommand": [\n          "python3",\n          "-m",\n          "pytest"\n        ]',
      ),
    );
    assert.match(await fs.readFile(scenario, 'utf8'), /"python3"/, 'the design names a Python test command');
    const project = path.join(dir, 'out-py', 'victim');
    const result = await runCli(['run', '--llm', `scripted:${scenario}`, '--out', path.join(dir, 'out-py'), '--name', 'victim'], {
      cwd: ROOT,
      env: { SOPWORKS_SANDBOX: 'fallback' },
    });
    const run = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8')) as { outcome: string; reason: string };
    assert.equal(run.outcome, 'failed', result.stdout + result.stderr);
    assert.match(run.reason, /the design's test command cannot run here: Cannot sandbox "python3 -m pytest"/);
    const exchanges = await fs.readFile(path.join(project, '.sopworks', 'exchanges.jsonl'), 'utf8');
    assert.doesNotMatch(exchanges, /"action":"write_tests"/, 'QA was not asked to write tests');
  });

  it('start-up: SOPWORKS_SANDBOX=bubblewrap where bubblewrap cannot run is refused (exit 2) before anything is written', async () => {
    // A PATH holding what sopworks needs but no bwrap.
    const bin = path.join(dir, 'bin-without-bwrap');
    await fs.mkdir(bin);
    for (const tool of ['node', 'git', 'sh', 'prlimit']) {
      const found = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
      await fs.symlink(found, path.join(bin, tool));
    }
    const out = path.join(dir, 'out-refused');
    const result = await runCli(['run', '--llm', `scripted:${DEMO}`, '--out', out], { cwd: ROOT, env: { SOPWORKS_SANDBOX: 'bubblewrap', PATH: bin } });
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /The sandbox must be bubblewrap .*bubblewrap \(bwrap\) is not installed/);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
    assert.equal(await exists(out), false, 'nothing was written');
  });

  describe('a tampered project handed back', () => {
    let project: string;
    const marker = () => path.join(dir, 'PWNED-tampered');

    before(async () => {
      const out = path.join(dir, 'out-tampered');
      await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', 'victim'], { cwd: ROOT });
      project = path.join(out, 'victim');
      // Planted as code that got through would plant them.
      await fs.writeFile(path.join(project, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\ntouch ${marker()}\n`, { mode: 0o755 });
      await fs.appendFile(
        path.join(project, '.git', 'config'),
        `[core]\n\tfsmonitor = "touch ${marker()}; false"\n\tpager = "touch ${marker()}; cat"\n[alias]\n\tst = "!touch ${marker()}"\n`,
      );
    });

    it('status warns, naming the planted hook and keys, and runs none of them', async () => {
      const result = await sopworks(['status', path.dirname(project)], { cwd: ROOT });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /warning: victim: a hook was planted: \.git\/hooks\/post-checkout/);
      assert.match(result.stderr, /\.git\/config sets core\.fsmonitor = touch/);
      assert.match(result.stderr, /\.git\/config sets alias\.st = !touch/);
      assert.equal(await exists(marker()), false);
    });

    it('review warns and still reads the history with its hardened git, running nothing planted', async () => {
      const result = await sopworks(['review', project], { cwd: ROOT });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout + result.stderr, /\.git\/config sets core\.pager/);
      assert.equal(await exists(marker()), false, "sopworks' git ran a planted key");
    });

    it('resume refuses a board with a forged line, naming the line (exit 2, no stack trace)', async () => {
      const copy = path.join(dir, 'forged-board');
      await fs.cp(project, copy, { recursive: true, verbatimSymlinks: true });
      const runFile = path.join(copy, '.sopworks', 'run.json');
      const record = JSON.parse(await fs.readFile(runFile, 'utf8')) as Record<string, unknown>;
      for (const key of ['outcome', 'reason', 'finishedAt']) delete record[key]; // a run cut off: resumable
      await fs.writeFile(runFile, JSON.stringify(record));
      const boardFile = path.join(copy, '.sopworks', 'board.jsonl');
      const lines = (await fs.readFile(boardFile, 'utf8')).split('\n');
      const forged = { ...JSON.parse(lines[2]!), id: 'msg-000099', seq: 99, type: 'Outcome', payload: { outcome: 'done', reason: 'forged' } };
      lines.splice(3, 0, JSON.stringify(forged));
      await fs.writeFile(boardFile, lines.join('\n'));
      const result = await sopworks(['resume', copy], { cwd: ROOT });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, /board\.jsonl:4: message msg-000099 \(seq 99\) where message msg-000004 belongs; the board was changed outside sopworks/);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
      assert.match(result.stderr, /a hook was planted: \.git\/hooks\/post-checkout/, 'the planted hook is named too');
      assert.equal(await exists(marker()), false);
    });

    it('resume refuses a .sopworks/ that is a symbolic link (exit 2), writing nothing through it', async () => {
      const elsewhere = path.join(dir, 'elsewhere-record');
      await fs.rename(path.join(project, '.sopworks'), elsewhere);
      await fs.symlink(elsewhere, path.join(project, '.sopworks'));
      const before = await fs.readFile(path.join(elsewhere, 'run.json'), 'utf8');
      const result = await sopworks(['resume', project], { cwd: ROOT });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, /Refused to resume .*: \.sopworks is a symbolic link/);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
      assert.equal(await fs.readFile(path.join(elsewhere, 'run.json'), 'utf8'), before);
      assert.equal(await exists(marker()), false);
    });
  });
});
