/**
 * `npm run bench` and `npm run bench:gaps`, small and fast: the rows carry what the issue asks for, each
 * graph runs at concurrency 1 and at one of at least its width, and the gap report adds up. (The figures
 * themselves are read from a real run, docs/performance.md — never asserted on time here.)
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);

describe('the benchmark', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('writes a row per graph, size and concurrency with the fields the issue names, and reads the targets from them', async () => {
    const json = path.join(await tempDir(), 'rows.json');
    const { stdout } = await exec(
      process.execPath,
      ['--import', 'tsx', 'bench/run.ts', '--sizes', '3,5', '--graphs', 'chain,fan', '--fixed-ms', '1', '--per-token-ms', '0', '--json', json],
      { cwd: ROOT },
    );
    const rows = JSON.parse(await fs.readFile(json, 'utf8')) as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((r) => [r.graph, r.files, r.width, r.concurrency]),
      [
        ['chain', 3, 1, 1],
        ['chain', 3, 1, 4],
        ['chain', 5, 1, 1],
        ['chain', 5, 1, 4],
        ['fan', 3, 2, 1],
        ['fan', 3, 2, 4],
        ['fan', 5, 4, 1],
        ['fan', 5, 4, 4],
      ],
    );
    for (const row of rows) {
      for (const field of ['wallMs', 'criticalPathMs', 'promptTokens', 'overheadMsPerCall', 'peakRssMb'])
        assert.equal(typeof row[field], 'number', `${field} of ${JSON.stringify(row)}`);
      assert.equal(row.outcome, 'done');
      assert.ok((row.peakRssMb as number) > 0 && (row.promptTokens as number) > 0);
      assert.ok(row.stealPct === null || (typeof row.stealPct === 'number' && row.stealPct >= 0 && row.stealPct <= 100), `stealPct of ${JSON.stringify(row)}`);
    }
    // The same project costs the same tokens whatever the concurrency.
    assert.equal(rows[0]!.promptTokens, rows[1]!.promptTokens);
    assert.match(stdout, /^targets:$/m);
    assert.match(stdout, /^ {2}wall \/ critical path at concurrency >= width: worst [\d.]+ \(target <= 1\.15\) (met|MISSED)$/m);
    assert.match(stdout, /^ {2}overhead per model call: worst [\d.]+ ms \(target <= 5\) (met|MISSED)$/m);
  });

  it('with --repeat N, gives each row the figures of its median run and the range of the overheads', async () => {
    const json = path.join(await tempDir(), 'rows.json');
    // Two runs a row: the median of an even count is the lower one, a figure a run really had.
    const { stdout } = await exec(
      process.execPath,
      ['--import', 'tsx', 'bench/run.ts', '--sizes', '3', '--graphs', 'chain', '--fixed-ms', '1', '--per-token-ms', '0', '--repeat', '2', '--json', json],
      { cwd: ROOT },
    );
    assert.match(stdout, /^each row: the median of 2 runs by overhead per call \(range beside it\)$/m);
    const rows = JSON.parse(await fs.readFile(json, 'utf8')) as { runs: number; overheadMsPerCall: number; overheadMsPerCallRange: [number, number] }[];
    assert.equal(rows.length, 2);
    for (const row of rows) {
      assert.equal(row.runs, 2);
      const [low, high] = row.overheadMsPerCallRange;
      assert.ok(low <= high, JSON.stringify(row));
      assert.equal(row.overheadMsPerCall, low, `the lower of the two: ${JSON.stringify(row)}`);
    }
    await assert.rejects(
      exec(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--repeat', '0'], { cwd: ROOT }),
      (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 2);
        assert.match(error.stderr, /^bench: --repeat: .*>=1\nusage: npm run bench -- .*\[--repeat 1\]$/m);
        return true;
      },
    );
  });

  it('shows where one run spends the time with no model call out', async () => {
    const { stdout } = await exec(process.execPath, ['--import', 'tsx', 'bench/idle-gaps.ts', 'fan', '4', '3'], { cwd: ROOT });
    const [, calls] = /: done, (\d+) calls, \d+ ms$/m.exec(stdout) ?? [];
    assert.equal(
      Number(calls),
      17,
      'PRD and its review, design, tasks, 4 files and the README written and reviewed, one revised and reviewed again, the tests',
    );
    const [, total] = /^no call out: (\d+) ms/m.exec(stdout) ?? [];
    const [, start, between, end] = /^ {2}start (\d+) ms, between calls (\d+) ms \(\d+\), end (\d+) ms$/m.exec(stdout) ?? [];
    assert.equal(Number(start) + Number(between) + Number(end), Number(total));
    assert.match(stdout, /^ +\d+ ms {2}start at +0 ms {2}posted: Requirement from client$/m);
    await assert.rejects(
      exec(process.execPath, ['--import', 'tsx', 'bench/idle-gaps.ts', 'ring', '4'], { cwd: ROOT }),
      /usage: npm run bench:gaps -- <chain\|fan\|diamond\|mix> <files ≥ 3> \[concurrency\]/,
    );
  });
});
