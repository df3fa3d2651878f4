/**
 * `npm run bench:reviews`: what a run's reviews cost and found, read from its exchange log — on a
 * capable model's recorded run (test/fixtures/recorded/) and on the demo, whose reviews send two
 * artifacts back, each then revised.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ReviewFigures } from '../../bench/review-figures.ts';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);

describe('the review figures', function () {
  this.timeout(300_000);
  after(removeTempDirs);

  let rows: ReviewFigures[];
  let stdout: string;
  before(async () => {
    const json = path.join(await tempDir(), 'rows.json');
    const scenarios = ['test/fixtures/recorded/mdtable-node.yaml', 'examples/wordfreq.yaml'];
    ({ stdout } = await exec(process.execPath, ['--import', 'tsx', 'bench/review-figures.ts', ...scenarios, '--json', json], { cwd: ROOT }));
    rows = JSON.parse(await fs.readFile(json, 'utf8')) as ReviewFigures[];
  });

  it("counts a capable model's recorded run: its reviews, their tokens, and the one that sent README.md back", () => {
    const run = rows[0]!;
    assert.equal(run.outcome, 'done');
    assert.equal(run.all.calls, 27);
    assert.deepEqual(
      Object.entries(run.byAction).map(([action, a]) => [action, a.calls, a.approved, a.rejected]),
      [
        ['review_prd', 1, 1, 0],
        ['review_file', 11, 10, 1],
      ],
    );
    assert.equal(run.reviews.calls, 12);
    assert.ok(run.reviews.prompt > 0 && run.reviews.prompt < run.all.prompt, 'the reviews are a part of the prompt tokens');
    assert.ok(run.reviews.completion < run.all.completion / 10, `a verdict is short beside the code: ${run.reviews.completion} tokens`);
    // The model's one finding: the README's example used echo, which turns "\n" into a newline in sh; it was revised.
    assert.deepEqual(
      run.findings.map((f) => [f.action, f.key, f.issues.length, f.revised]),
      [['review_file', 'README.md', 1, true]],
    );
    assert.match(run.findings[0]!.issues[0]!, /printf/);
  });

  it('says what the reviews of the demo found, and that each was revised', () => {
    const demo = rows[1]!;
    assert.equal(demo.outcome, 'done');
    assert.deepEqual(
      demo.findings.map((f) => [f.action, f.key, f.issues.length, f.revised]),
      [
        ['review_prd', null, 3, true],
        ['review_file', 'src/cli.js', 3, true],
      ],
    );
    assert.match(stdout, /^\| mdtable-node \| done \| 27 \| \d+ \| 12 \(44%\) \|/m);
    assert.match(stdout, /review_file src\/cli\.js \(revised\)\n {2}- Usage errors/);
  });
});
