/**
 * Running real projects in the sandbox: the test runners generated projects use (node --test, npm
 * test, Python's unittest) under bubblewrap and under the fallback; the output cap; and `sopworks
 * sandbox exec`, which runs a command exactly as QA does (dependency installs: dependencies.test.ts).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../src/ground/errors.ts';
import { DEFAULT_LIMITS, type ModeSetting, runSandboxed, type SandboxLimits } from '../../src/host/sandbox/index.ts';
import { runCli } from '../helpers/run-cli.ts';
import { BUBBLEWRAP, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const LIMITS: SandboxLimits = { ...DEFAULT_LIMITS, wallSeconds: 30 };

async function project(files: Record<string, string>): Promise<string> {
  const dir = path.join(await tempDir(), 'project');
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), content);
  }
  return dir;
}

const NODE_PROJECT = {
  'package.json': JSON.stringify({ name: 'demo', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }),
  'src/add.js': 'export const add = (a, b) => a + b;\n',
  'test/add.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/add.js';\n" +
    "test('adds', () => assert.equal(add(2, 3), 5));\n",
  // A CLI test reads its child's stderr: the sandbox's own warnings must not be in it (Node's permission
  // model warned there of --allow-child-process, which failed such tests only under the fallback).
  'test/cli.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { spawnSync } from 'node:child_process';\n" +
    "test('a child prints nothing on stderr', () => {\n" +
    "  const run = spawnSync(process.execPath, ['-e', 'console.log(1)'], { encoding: 'utf8' });\n" +
    "  assert.equal(run.stderr, '');\n  assert.equal(run.stdout, '1\\n');\n});\n",
};

const PYTHON_PROJECT = {
  'calc.py': 'def add(a, b):\n    return a + b\n',
  'tests/test_calc.py':
    'import unittest\nfrom calc import add\n\nclass AddTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n',
  'tests/__init__.py': '',
};

describe('running projects in the sandbox', function () {
  this.timeout(60_000);
  before(function () {
    requireSystem(this, BUBBLEWRAP, PYTHON);
  });
  after(removeTempDirs);

  for (const [setting, mode] of [
    ['auto', 'bubblewrap'],
    ['fallback', 'node-permissions'],
  ] as [ModeSetting, string][]) {
    for (const argv of [
      ['node', '--test'],
      ['npm', 'test'],
    ]) {
      it(`runs "${argv.join(' ')}" of a Node project under ${mode}`, async () => {
        const dir = await project(NODE_PROJECT);
        const outcome = await runSandboxed({ argv, projectDir: dir, limits: LIMITS, setting, allowUnsandboxed: false });
        const seen = JSON.stringify(outcome, null, 2);
        assert.equal(outcome.mode, mode, seen);
        assert.equal(outcome.exitCode, 0, seen);
        assert.match(outcome.output, /^# pass 2$/m, seen);
        assert.deepEqual([outcome.limitsHit, outcome.violations], [[], []], seen);
      });
    }
  }

  it("runs a Python project's unittest suite under bubblewrap", async () => {
    const dir = await project(PYTHON_PROJECT);
    const outcome = await runSandboxed({
      argv: ['python3', '-m', 'unittest', 'discover', '-s', 'tests', '-t', '.'],
      projectDir: dir,
      limits: LIMITS,
      setting: 'auto',
      allowUnsandboxed: false,
    });
    assert.equal(outcome.mode, 'bubblewrap');
    assert.equal(outcome.exitCode, 0, outcome.output);
    assert.match(outcome.output, /^Ran 1 test in/m);
    assert.deepEqual(outcome.gaps, []);
  });

  it('refuses a Python project without bubblewrap, and runs it unsandboxed only when allowed, saying so', async () => {
    const dir = await project(PYTHON_PROJECT);
    const argv = ['python3', '-m', 'unittest', 'discover', '-s', 'tests', '-t', '.'];
    await assert.rejects(
      runSandboxed({ argv, projectDir: dir, limits: LIMITS, setting: 'fallback', allowUnsandboxed: false }),
      (error: unknown) =>
        SopworksError.isInstance(error) && /^Cannot sandbox "python3 -m unittest/.test(error.message) && /--allow-unsandboxed/.test(error.hint ?? ''),
    );
    const notices: string[] = [];
    const outcome = await runSandboxed({
      argv,
      projectDir: dir,
      limits: LIMITS,
      setting: 'fallback',
      allowUnsandboxed: true,
      onNotice: (n) => notices.push(n),
    });
    assert.equal(outcome.mode, 'unsandboxed');
    assert.equal(outcome.exitCode, 0, outcome.output);
    assert.match(notices.join('\n'), /^NOT SANDBOXED: /);
    assert.ok(
      outcome.gaps.some((gap) => gap.startsWith('filesystem: not isolated; the command can read and write whatever your user can')),
      outcome.gaps.join('\n'),
    );
  });

  it("keeps a program's stdout and stderr in the order it wrote them, under each mode", async () => {
    // Alternate lines, each written whole with a sync write: read from two pipes they would come in runs of each.
    const dir = await project({
      'alternate.js': "const fs = require('node:fs');\nfor (let i = 0; i < 400; i++) fs.writeSync(i % 2 ? 2 : 1, `${i}\\n`);\n",
    });
    const expected = `${Array.from({ length: 400 }, (_, i) => i).join('\n')}\n`;
    for (const setting of ['auto', 'fallback'] as const) {
      const outcome = await runSandboxed({ argv: ['node', 'alternate.js'], projectDir: dir, limits: LIMITS, setting, allowUnsandboxed: false });
      assert.equal(outcome.exitCode, 0, outcome.output);
      assert.equal(outcome.output, expected, setting);
    }
  });

  it('keeps the tail of an output larger than the cap, and says the cap was hit', async () => {
    const dir = await project({ 'flood.js': "for (let i = 0; i < 5000; i++) console.log(`line ${i} ${'x'.repeat(40)}`);\nconsole.log('THE END');\n" });
    const outcome = await runSandboxed({
      argv: ['node', 'flood.js'],
      projectDir: dir,
      limits: { ...LIMITS, outputKb: 8 },
      setting: 'auto',
      allowUnsandboxed: false,
    });
    assert.equal(outcome.exitCode, 0);
    assert.deepEqual(outcome.limitsHit, ['output']);
    assert.equal(outcome.truncated, true);
    assert.ok(Buffer.byteLength(outcome.output) <= 8 * 1024);
    assert.match(outcome.output, /line 4999 x+\nTHE END\n$/);
  });

  describe('sopworks sandbox exec', () => {
    it('runs a command as QA does and prints its exit code, mode, limits hit and violations', async () => {
      const dir = await project({
        'escape.js': "try { require('node:fs').writeFileSync('/escaped.txt', 'x'); } catch (error) { console.error(error.message); }\nprocess.exit(3);\n",
      });
      const run = await runCli(['sandbox', 'exec', '--dir', dir, '--timeout', '20', '--', 'node', 'escape.js'], { cwd: dir });
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stdout, /EROFS: read-only file system, open '\/escaped\.txt'/);
      assert.match(run.stdout, /^Ended\s+exit code 3$/m);
      assert.match(run.stdout, /^Sandbox\s+bubblewrap$/m);
      assert.match(run.stdout, /^Limits\s+wall 20 s, CPU 60 s per process/m);
      assert.match(run.stdout, /^Limits hit\s+none$/m);
      assert.match(run.stdout, /^Violations\s+1\n {2}- filesystem: write refused \(read-only\): \/escaped\.txt$/m);
    });

    it('announces the weaker fallback loudly and lists what it does not stop', async () => {
      const dir = await project(NODE_PROJECT);
      const run = await runCli(['sandbox', 'exec', '--dir', dir, '--', 'node', '--test'], { cwd: dir, env: { SOPWORKS_SANDBOX: 'fallback' } });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^WEAKER SANDBOX: SOPWORKS_SANDBOX=fallback\. "node --test" runs under Node's permission model/m);
      assert.match(run.stdout, /^Sandbox\s+node-permissions$/m);
      assert.match(run.stdout, /^Not stopped in this mode:\n {2}- network: not blocked/m);
    });

    it('refuses a command the policy does not let QA run, with exit code 2', async () => {
      const dir = await project(NODE_PROJECT);
      const run = await runCli(['sandbox', 'exec', '--dir', dir, '--', 'npm', 'install', 'left-pad'], { cwd: dir });
      assert.equal(run.code, 2);
      assert.match(
        run.stderr,
        /Refused: "npm install left-pad" installs dependencies; the policy lets them come only from the project's manifest, installed by the installDependencies step before the tests \(dependencies\.install: true\)\. Allowed by the policy: commands starting with: node;[^\n]*[^.]\.\n/,
      );
      assert.match(run.stderr, /Run a command the policy allows, or edit .*sops\/policy\.yaml\./, 'the person at the terminal is told which file to edit');
    });
  });
});

describe('the weaker sandbox and the host PATH', function () {
  this.timeout(60_000);
  after(removeTempDirs);

  it("never runs a host package's command for a project that lacks it (npm's and npx's node_modules/.bin are left off PATH)", async () => {
    const host = await tempDir('host-bins-');
    const bin = path.join(host, 'node_modules', '.bin');
    await fs.mkdir(bin, { recursive: true });
    const marker = path.join(host, 'ran.txt');
    await fs.writeFile(path.join(bin, 'hostonly-runner'), `#!/bin/sh\necho ran > '${marker}'\n`, { mode: 0o755 });
    const dir = await project({ 'package.json': JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'hostonly-runner' } }) });
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved}`;
    try {
      const outcome = await runSandboxed({ argv: ['npm', 'test'], projectDir: dir, limits: LIMITS, setting: 'fallback', allowUnsandboxed: false });
      assert.equal(outcome.mode, 'node-permissions');
      assert.equal(outcome.exitCode, 127, outcome.output);
      assert.match(outcome.output, /hostonly-runner: not found/);
    } finally {
      process.env.PATH = saved;
    }
    await assert.rejects(fs.stat(marker), 'the host-only command never ran');
  });
});
