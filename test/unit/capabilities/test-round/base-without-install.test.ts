/**
 * A change's base whose install failed (trial jsonptr47: a requirements-dev.txt of `wheel`, `setuptools`,
 * `coverage` and `flake8`, with no index reachable) still has its tests run, in the sandbox: when some
 * pass without what failed to install, the change goes on and the baseline says what they ran without;
 * when none can, the install stays the first cause and no code is written.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { renderBaselineTests } from '../../../../src/capabilities/change/index.ts';
import { runBaseTests } from '../../../../src/capabilities/test-round/base-tests.ts';
import type { Progress } from '../../../../src/engine/steps/index.ts';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../../src/host/sandbox/index.ts';
import { BUBBLEWRAP, PYTHON, requireSystem } from '../../../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const UNREACHABLE = [
  'ERROR: Could not find a version that satisfies the requirement wheel (from versions: none)',
  'ERROR: No matching distribution found for wheel',
].join('\n');

const INSTALL = {
  passed: false,
  command: ['pip', 'install', '-r', 'requirements-dev.txt'],
  exitCode: 1,
  timedOut: false,
  failures: [{ name: 'install: the registry', message: 'the registry could not be reached (ENOTFOUND getaddrinfo ENOTFOUND pypi.org)' }],
  output: UNREACHABLE,
};

async function repository(files: Record<string, string>): Promise<string> {
  const dir = await tempDir('sopworks-base-');
  for (const [file, content] of Object.entries(files)) await fs.writeFile(path.join(dir, file), content);
  return dir;
}

async function base(root: string) {
  const said: Progress[] = [];
  const baseline = await runBaseTests({
    root,
    command: ['python3', '-m', 'unittest', '-v'],
    timeoutSeconds: 60,
    sandbox: DEFAULT_SANDBOX_SETTINGS,
    install: INSTALL,
    progress: (event) => said.push(event),
  });
  return { baseline, said: said.map((event) => event.detail) };
}

const LIBRARY = 'def double(n):\n    return 2 * n\n';

describe('the tests on the base, after an install that failed', function () {
  this.timeout(120_000);
  before(function () {
    requireSystem(this, BUBBLEWRAP, PYTHON);
  });
  after(removeTempDirs);

  it('run without it, and the change goes on when some passed, saying what they ran without', async () => {
    const root = await repository({
      'requirements-dev.txt': 'wheel\nsetuptools\ncoverage\nflake8\n',
      'double.py': LIBRARY,
      'test_double.py':
        'import unittest\nfrom double import double\n\nclass T(unittest.TestCase):\n    def test_doubles(self):\n        self.assertEqual(double(2), 4)\n',
    });
    const { baseline, said } = await base(root);
    assert.equal(baseline.runner.started, true, baseline.output);
    assert.equal(baseline.passed, true, baseline.output);
    assert.deepEqual(baseline.counts, { passed: 1, failed: 0 });
    const cause = 'the dependencies could not be installed (pip install): the registry could not be reached (ENOTFOUND getaddrinfo ENOTFOUND pypi.org)';
    assert.equal(baseline.runner.line, `${cause}; the tests ran without them (1 passed, 0 failed)`);
    assert.ok(said.includes(`base: ${cause}; running the tests without them`), said.join('\n'));
    const shown = renderBaselineTests(baseline);
    assert.match(shown, /^# Tests on the base$/m);
    assert.match(shown, /## Note\n\nthe dependencies could not be installed \(pip install\): .*; the tests ran without them \(1 passed, 0 failed\)\./);
  });

  it('keep the install as the first cause when no test passes without it', async () => {
    const root = await repository({
      'double.py': LIBRARY,
      'test_double.py': 'import unittest\nimport freezegun\n\nclass T(unittest.TestCase):\n    def test_frozen(self):\n        self.assertTrue(freezegun)\n',
    });
    const { baseline } = await base(root);
    assert.equal(baseline.runner.started, false, baseline.output);
    assert.equal(baseline.signature, 'install failed');
    assert.match(baseline.runner.line!, /^the dependencies could not be installed \(pip install\): the registry could not be reached/);
    assert.match(renderBaselineTests(baseline), /^# Tests on the base: they could not run$/m);
  });
});
