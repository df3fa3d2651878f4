/**
 * `npm run bench:scale`, small: kept from going stale against the queue (it once failed every run it
 * queued within 0.1 s, printed no reason, reported thousands of "runs/min" and exited 0). Its runs must
 * end done through the real worker command; a benchmark whose runs fail must say why and exit 1. The
 * figures themselves are read from a real run on a quiet machine (docs/performance.md), never asserted.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../helpers/paths.ts';
import { REDIS, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const scale = (args: string[]) => exec(process.execPath, ['--import', 'tsx', 'bench/scale.ts', ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
const SMALL = ['--latency-ms', '1', '--workers', '1', '--runs-per-worker', '2', '--concurrency', '2', '--limit-runs', '2', '--sizes', '3'];

interface Phase {
  runs: number;
  failed: number;
  runsPerMin: number;
  load: [number, number];
  stealPct: number | null;
}

describe('the queue benchmark (bench:scale)', function () {
  this.timeout(240_000);
  before(function () {
    requireSystem(this, REDIS);
  });
  after(removeTempDirs);

  it('runs its queued runs to done through the real worker, and prints the load and the steal of each phase', async () => {
    const json = path.join(await tempDir(), 'scale.json');
    const { stdout } = await scale([...SMALL, '--json', json]);
    const result = JSON.parse(await fs.readFile(json, 'utf8')) as { below: Phase[]; at: Phase; targets: { met: boolean }[] };
    for (const phase of [...result.below, result.at]) {
      assert.equal(phase.failed, 0, JSON.stringify(phase));
      assert.ok(phase.runsPerMin > 0 && phase.runsPerMin < 60_000 / 11, `a plausible rate for runs of 11 calls: ${phase.runsPerMin}`);
      assert.ok(phase.load.every((l) => l >= 0));
      assert.ok(phase.stealPct === null || (phase.stealPct >= 0 && phase.stealPct <= 100));
    }
    assert.equal(result.targets.length, 4);
    assert.match(stdout, /^\| below the limit \| 1 \| 2 \| 0 \| [\d.]+ \| [\d.]+ \| .* \| [\d.]+ → [\d.]+ \| ([\d.]+|n\/a) \|$/m);
    assert.match(stdout, /^Machine: .* load [\d. ]+ at the end$/m);
  });

  it('says why its runs failed and exits 1 when they do', async () => {
    const sops = path.join(await tempDir(), 'no-sops');
    await assert.rejects(scale([...SMALL, '--sops', sops]), (error: { code: number; stdout: string }) => {
      assert.equal(error.code, 1, error.stdout);
      assert.match(error.stdout, /^2 of 2 runs failed below the limit with 1 worker\(s\); nothing is measured\. Why they failed:$/m);
      assert.match(error.stdout, /^- 2 run\(s\): .*no-sops/m);
      assert.doesNotMatch(error.stdout, /runs\/min/);
      return true;
    });
  });
});
