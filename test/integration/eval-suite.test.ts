/**
 * `sopworks eval`: the shipped suite runs to the end with every spec done and measured; a suite killed
 * mid-run is resumed without redoing its finished runs, to the same trees; a suite file with errors is
 * refused at file:line before anything is made; two results files compare side by side.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { SuiteResults } from '../../src/apps/eval/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const SUITE = path.join(ROOT, 'examples', 'eval', 'suite.yaml');
const tree = async (dir: string) => (await exec('git', ['rev-parse', 'HEAD^{tree}'], { cwd: dir })).stdout.trim();
const readResults = async (out: string) => SuiteResults.parse(JSON.parse(await fs.readFile(path.join(out, 'eval.json'), 'utf8')));
const runJson = async (dir: string) =>
  JSON.parse(await fs.readFile(path.join(dir, '.sopworks', 'run.json'), 'utf8')) as { startedAt: string; resumedAt: string[]; outcome?: string };

describe('sopworks eval', function () {
  this.timeout(240_000);
  let shipped: { out: string; stdout: string; code: number | null };

  before(async () => {
    const cwd = await tempDir();
    const out = path.join(cwd, 'eval');
    const result = await sopworks(['eval', SUITE, '--out', out, '--concurrency', '4'], { cwd });
    shipped = { out, stdout: result.stdout, code: result.code };
    assert.equal(result.code, 0, result.stdout + result.stderr);
  });
  after(removeTempDirs);

  it('runs the shipped suite of at least 10 specs, every one done, its tests passing, its entry point running', async () => {
    const results = await readResults(shipped.out);
    assert.ok(results.specs.length >= 10, `${results.specs.length} specs`);
    for (const spec of results.specs) {
      assert.equal(spec.outcome, 'done', `${spec.name}: ${spec.reason}`);
      assert.equal(spec.tests?.allPassed, true, spec.name);
      assert.equal(spec.entryRuns, true, spec.name);
      assert.ok(
        spec.checks.every((c) => c.passed),
        `${spec.name}: ${JSON.stringify(spec.checks)}`,
      );
      assert.ok(spec.files >= 4 && spec.lines > 20 && spec.calls >= 11, `${spec.name}: ${spec.files} files, ${spec.lines} lines, ${spec.calls} calls`);
      assert.equal(spec.tokensPerLine, Math.round(((spec.promptTokens + spec.completionTokens) / spec.lines) * 10) / 10);
    }
    const a = results.aggregates;
    assert.equal(a.done, results.specs.length);
    assert.equal(a.executability, 1);
    assert.equal(a.completeness, 1);
    assert.equal(
      a.totalCalls,
      results.specs.reduce((sum, s) => sum + s.calls, 0),
    );
  });

  it('prints the table and writes it as markdown', async () => {
    assert.match(
      shipped.stdout,
      /spec\s+outcome\s+tests passed\s+criteria proven\s+entry runs\s+checks\s+files\s+lines\s+calls\s+prompt tok\s+completion tok\s+tok\/line\s+cost\s+wall/,
    );
    assert.match(shipped.stdout, /MetaGPT · tokens per line\s+\d/);
    assert.match(shipped.stdout, /ChatDev · executability\s+100%/);
    const markdown = await fs.readFile(path.join(shipped.out, 'eval.md'), 'utf8');
    assert.match(markdown, /^\| wordfreq \| done \| 8\/8 \| 5\/5 \(P0 5\/5\) \| yes \|/m);
    assert.match(markdown, /\| acceptance criteria proven \| 100% \|/);
    assert.match(markdown, /\| ChatDev · completeness \| 100% \|/);
  });

  it('resumes a suite killed mid-run: finished runs are kept, the cut-off run is resumed, the rest are run, to the same trees', async () => {
    const cwd = await tempDir();
    const suite = path.join(cwd, 'three.yaml');
    const scenario = (name: string) => path.join(ROOT, 'examples', 'eval', `${name}.yaml`);
    await fs.writeFile(
      suite,
      `name: three\nconcurrency: 1\nspecs:\n${['roman', 'caesar', 'vowels'].map((n) => `  - name: ${n}\n    scenario: ${scenario(n)}\n    entry: [node, src/cli.js, '7']\n`).join('')}`,
    );
    const out = path.join(cwd, 'out');
    // The 13th commit of the process falls in the second run (each run makes about ten): the whole eval is SIGKILLed.
    const killed = await sopworks(['eval', suite, '--out', out], { cwd, env: { SOPWORKS_CRASH_AT: 'git.commit:13' } });
    assert.equal(killed.code, null, killed.stdout + killed.stderr);
    const first = await runJson(path.join(out, 'roman'));
    assert.equal(first.outcome, 'done');
    assert.equal((await runJson(path.join(out, 'caesar'))).outcome, undefined);

    const resumed = await sopworks(['eval', suite, '--out', out], { cwd });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, /roman: done — kept \(finished earlier\)/);
    assert.match(resumed.stdout, /caesar: done — resumed/);
    assert.match(resumed.stdout, /vowels: done — run,/);
    assert.deepEqual(await runJson(path.join(out, 'roman')), first, 'the finished run was not touched');
    assert.equal((await runJson(path.join(out, 'caesar'))).resumedAt.length, 1);
    for (const name of ['roman', 'caesar', 'vowels']) {
      assert.equal(await tree(path.join(out, name)), await tree(path.join(shipped.out, name)), `${name}: same tree as in the uninterrupted suite`);
    }
    const results = await readResults(out);
    assert.deepEqual(
      results.specs.map((s) => [s.name, s.outcome]),
      [
        ['roman', 'done'],
        ['caesar', 'done'],
        ['vowels', 'done'],
      ],
    );
  });

  it('refuses a suite file with errors, each at file:line, before anything is made', async () => {
    const cwd = await tempDir();
    const suite = path.join(cwd, 'bad.yaml');
    await fs.writeFile(
      suite,
      [
        'name: bad',
        'specs:',
        '  - name: Not A Name',
        '    spec: x',
        '  - name: twice',
        '    scenario: missing.yaml',
        '  - name: twice',
        '    spec: y',
        '    colour: blue',
        '',
      ].join('\n'),
    );
    const out = path.join(cwd, 'out');
    const result = await sopworks(['eval', suite, '--out', out], { cwd });
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stderr, new RegExp(`${suite.replace(/[.]/g, '\\.')}:3:\\d+: error: specs\\.0\\.name: must be lower-case`));
    assert.match(result.stderr, /bad\.yaml:9:\d+: error: .*colour/);
    const again = await fs.writeFile(
      suite,
      ['name: bad', 'specs:', '  - name: one', '    scenario: missing.yaml', '  - name: one', '    spec: y', ''].join('\n'),
    );
    assert.equal(again, undefined);
    const second = await sopworks(['eval', suite, '--out', out], { cwd });
    assert.equal(second.code, 2);
    assert.match(second.stderr, /bad\.yaml:4:\d+: error: specs\.0\.scenario: Cannot read scenario file .*missing\.yaml: ENOENT/);
    assert.match(second.stderr, /bad\.yaml:5:\d+: error: specs\.1\.name: "one" is used by an earlier spec/);
    await assert.rejects(fs.stat(out), 'nothing was made');
  });

  it('compares two results files side by side, and refuses a file that is not one', async () => {
    const cwd = await tempDir();
    const a = path.join(shipped.out, 'eval.json');
    const compared = await sopworks(['eval', '--compare', a, a], { cwd });
    assert.equal(compared.code, 0, compared.stderr);
    // The same run on both sides: the same tokens (whatever the prompts weigh today), a ratio of 1.
    assert.match(compared.stdout, /^wordfreq\s+done\s+8\/8\s+(\d+)\s+[\d.]+s\s+done\s+8\/8\s+\1\s+[\d.]+s\s+1\.00$/m);
    assert.match(compared.stdout, /MetaGPT · tokens per line\s+[\d.]+\s+[\d.]+/);
    const bogus = path.join(cwd, 'bogus.json');
    await fs.writeFile(bogus, '{"suite": 3}');
    const refused = await sopworks(['eval', '--compare', a, bogus], { cwd });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /bogus\.json is not an eval's results/);
  });
});
