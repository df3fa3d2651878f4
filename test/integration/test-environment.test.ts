/**
 * The code under test sees the environment it would see on the user's machine: a test round adds no
 * NO_COLOR, no CI, no locale of sopworks' choosing — a colour library's tests that check those pass in
 * the sandbox as they do outside it — and the round's report lists every variable sopworks set. The
 * host's installer alone keeps its quiet settings.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { renderTestReport, runTestRound } from '../../src/capabilities/test-round/index.ts';
import { DEFAULT_SANDBOX_SETTINGS, type ModeSetting, sandboxEnvironment } from '../../src/host/sandbox/index.ts';
import { BUBBLEWRAP, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

async function project(files: Record<string, string>): Promise<string> {
  const dir = path.join(await tempDir('sopworks-env-'), 'project');
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), content);
  }
  return dir;
}

/** A colour library's tests, in the shape colorama's take: colour is on unless the environment turns it off. */
const NODE_COLOURS = {
  'package.json': JSON.stringify({ name: 'colours', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }),
  'src/colour.js': "export const colourOn = () => !('NO_COLOR' in process.env) && process.env.CI === undefined;\n",
  'test/colour.test.js': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { colourOn } from '../src/colour.js';",
    "test('colour is on by default', () => assert.equal(colourOn(), true, JSON.stringify({ NO_COLOR: process.env.NO_COLOR, CI: process.env.CI })));",
    "test('the environment has nothing sopworks did not say', () => console.log('ENV ' + Object.keys(process.env).sort().join(',')));",
  ].join('\n'),
};

const PYTHON_COLOURS = {
  'colours.py': 'import os\n\ndef colour_on():\n    return "NO_COLOR" not in os.environ and "CI" not in os.environ\n',
  'colours_test.py':
    'import unittest\nfrom colours import colour_on\n\nclass ColourTest(unittest.TestCase):\n    def test_on_by_default(self):\n        self.assertTrue(colour_on())\n',
};

const round = (projectDir: string, testCommand: string[], mode: ModeSetting = 'auto') =>
  runTestRound({ round: 1, testCommand, projectDir, timeoutMs: 60_000, sandbox: { ...DEFAULT_SANDBOX_SETTINGS, mode }, progress: () => {} });

describe('the environment of the code under test', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  for (const [setting, label] of [
    ['auto', 'bubblewrap'],
    ['fallback', "Node's permission model"],
  ] as [ModeSetting, string][]) {
    it(`sets neither NO_COLOR nor CI for a Node project's tests (${label}), and the report lists what it set`, async function () {
      if (setting === 'auto') requireSystem(this, BUBBLEWRAP);
      const report = await round(await project(NODE_COLOURS), ['node', '--test'], setting);
      assert.equal(report.passed, true, report.output);
      assert.deepEqual(report.counts, { passed: 2, failed: 0 });
      const seen = /^ENV (.*)$/m.exec(report.output)?.[1]?.split(',') ?? [];
      for (const name of ['NO_COLOR', 'CI', 'FORCE_COLOR']) assert.ok(!seen.includes(name), `${name} reached the tests: ${seen.join(',')}`);
      const listed = report.sandbox!.environment!.map((line) => /^[A-Za-z_]+/.exec(line)![0]);
      // Every variable the tests saw is one the report names (Node adds none of its own to process.env).
      for (const name of seen) assert.ok(listed.includes(name) || ['NODE_OPTIONS'].includes(name), `${name} is not listed: ${listed.join(',')}`);
      for (const name of ['HOME', 'TMPDIR', 'PATH', 'npm_config_globalconfig']) assert.ok(listed.includes(name), listed.join(','));
      const page = renderTestReport(report);
      assert.match(page, /## Environment/);
      assert.match(page, /`npm_config_globalconfig=\/dev\/null`/);
      assert.doesNotMatch(page, /NO_COLOR=|CI=true/);
    });
  }

  it("sets neither for a Python project's unittest suite (a colour library's own tests pass)", async function () {
    requireSystem(this, BUBBLEWRAP, PYTHON);
    const report = await round(await project(PYTHON_COLOURS), ['python3', '-m', 'unittest', 'discover', '-p', '*_test.py']);
    assert.equal(report.passed, true, report.output);
    assert.deepEqual(report.counts, { passed: 1, failed: 0 });
  });

  it("keeps the installer's quiet settings, and the user's locale when it has one", () => {
    const env = { LANG: process.env.LANG };
    process.env.LANG = 'de_DE.UTF-8';
    try {
      const tests = sandboxEnvironment({ mode: 'bubblewrap', runId: 'r', hostTmp: null, binDirs: [], installer: false });
      const installer = sandboxEnvironment({ mode: 'bubblewrap', runId: 'r', hostTmp: null, binDirs: [], installer: true });
      assert.equal(tests.NO_COLOR, undefined);
      assert.equal(tests.CI, undefined);
      assert.equal(tests.LANG, 'de_DE.UTF-8');
      assert.equal(installer.NO_COLOR, '1');
      assert.equal(installer.CI, 'true');
    } finally {
      if (env.LANG === undefined) delete process.env.LANG;
      else process.env.LANG = env.LANG;
    }
  });
});
