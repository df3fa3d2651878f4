/**
 * Suites that need an optional system package: on a machine without it they are skipped and the last
 * lines say which and how to install it; under CI=true they fail, so CI never skips them silently.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../helpers/paths.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'system-requirements', 'needs-missing-package.ts');

/** Runs mocha on the fixture alone, with the project's reporter, as `npm test` would. */
function mochaOnFixture(env: Record<string, string | undefined>) {
  const mocha = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const args = [mocha, '--no-config', '--node-option', 'import=tsx', '--reporter', 'test/helpers/summary-reporter.cjs', FIXTURE];
  return spawnSync(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
}

describe('suites that need a system package', function () {
  this.timeout(60_000);

  it('are skipped on a machine without it, and the summary says which and how to install it', () => {
    const run = mochaOnFixture({ CI: undefined });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines.at(-1), '1 passed, 0 failed, 1 skipped');
    assert.match(
      run.stdout,
      /SKIPPED for missing system packages \(required when CI=true\):\n {2}sopworks-missing-package \(sopworks-no-such-command not found\): 1 suite\(s\) skipped — install with: apt-get install -y sopworks-missing-package\n/,
    );
    // Every missing requirement is listed, not only the first; the one that is there is not.
    assert.match(run.stdout, /\n {2}sopworks-other-package \(sopworks-no-such-other not found\): 1 suite\(s\) skipped/);
    assert.doesNotMatch(run.stdout, /\n {2}node \(/);
  });

  it('fail under CI=true', () => {
    const run = mochaOnFixture({ CI: 'true' });
    assert.notEqual(run.status, 0);
    assert.match(
      run.stdout,
      /sopworks-missing-package is required under CI=true \(sopworks-no-such-command not found\): apt-get install -y sopworks-missing-package; sopworks-other-package is required under CI=true/,
    );
    assert.match(run.stdout.trimEnd().split('\n').at(-1)!, /^1 passed, 1 failed/);
  });
});
