/**
 * A resumed run counts one model once: a scenario named by a relative path when the run started, by
 * its absolute path in run.json when it is resumed (from another folder), or spelt another way on
 * `resume --llm`, is one model in the run's usage — one row, every call in it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DEMO, ROOT } from '../helpers/paths.ts';
import { runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const usageOf = async (project: string) => JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8')).usage;

describe('a resumed run counts one model once', function () {
  this.timeout(180_000);
  let out: string;
  before(async () => {
    out = await tempDir('sopworks-model-count-');
  });
  after(removeTempDirs);

  it('named relative at the start and absolute on resume (from another folder), or spelt another way: one model, every call', async () => {
    const relative = path.relative(ROOT, DEMO);
    const [first, second] = await Promise.all([
      runCli(['run', '--llm', `scripted:${relative}`, '--out', out, '--name', 'relative', '--until', 'design'], { cwd: ROOT }),
      runCli(['run', '--llm', `scripted:./${relative}`, '--out', out, '--name', 'respelt', '--until', 'prd'], { cwd: ROOT }),
    ]);
    assert.equal(first.code, 5, first.stderr);
    assert.equal(second.code, 5, second.stderr);
    const [resumed, respelt] = await Promise.all([
      runCli(['resume', path.join(out, 'relative')], { cwd: out }),
      runCli(['resume', path.join(out, 'respelt'), '--llm', `scripted:${ROOT}/./${relative.replace('/', '//')}`], { cwd: ROOT }),
    ]);
    for (const [name, result] of [
      ['relative', resumed],
      ['respelt', respelt],
    ] as const) {
      assert.equal(result.code, 0, result.stdout);
      assert.doesNotMatch(result.stdout, /^ {2}model {2,}calls/m, `${name}: no per-model table, there is one model`);
      const usage = await usageOf(path.join(out, name));
      assert.deepEqual(Object.keys(usage.byModel), [`scripted:${DEMO}`], name);
      assert.equal(usage.byModel[`scripted:${DEMO}`].calls, usage.total.calls, `${name}: every call in that one row`);
    }
  });
});
