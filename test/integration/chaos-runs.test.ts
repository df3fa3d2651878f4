/**
 * `--chaos` on real runs, as a user starts them: a short chaos eval (two specs, two repeats, a clean run
 * each) ends every run done with the clean run's tree and lists every run with its seed, tree and
 * faults; chaos runs killed with -9 at random moments resume to that same tree; bad chaos flags are
 * refused before anything is written. The robustness figure at scale is `npm run bench:chaos`
 * (docs/eval.md), not a test. The killed runs are child processes; the eval and the resumes run in this
 * process (test/helpers/in-process.ts).
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { main } from '../../src/apps/cli/index.ts';
import { SuiteResults } from '../../src/apps/eval/index.ts';
import { drawsFor } from '../../src/capabilities/model/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, ROOT } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const tree = async (dir: string) => (await exec('git', ['rev-parse', 'HEAD^{tree}'], { cwd: dir })).stdout.trim();
const scenario = (name: string) => path.join(ROOT, 'examples', 'eval', `${name}.yaml`);
/** Retries wait little here: the faults are what is tested, not the backoff. */
const FAST = { SOPWORKS_RETRY_BASE_MS: '5', SOPWORKS_SCRIPTED_LATENCY_MS: '20' };

/** Starts a chaos run of the roman scenario and SIGKILLs it after its n-th progress line. */
function killedAfter(out: string, lines: number, seed: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const args = [BIN, 'run', '--llm', `scripted:${scenario('roman')}`, '--out', out, '--chaos', '0.5', '--seed', String(seed)];
    const child = spawn(process.execPath, args, { cwd: out, env: cleanEnv(FAST), stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString().split('\n').length - 1;
      if (seen >= lines) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve(signal));
  });
}

describe('chaos runs', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  let results: SuiteResults;
  let stdout: string;
  let out: string;
  /** The roman scenario's tree without chaos: the suite's clean run of it. */
  let clean: string;

  before(async () => {
    const cwd = await tempDir();
    const suite = path.join(cwd, 'two.yaml');
    await fs.writeFile(suite, `name: two\nspecs:\n${['roman', 'vowels'].map((n) => `  - name: ${n}\n    scenario: ${scenario(n)}\n`).join('')}`);
    out = path.join(cwd, 'out');
    const result = await sopworks(['eval', suite, '--out', out, '--chaos', '0.5', '--seed', '11', '--repeat', '2', '--concurrency', '3'], { cwd, env: FAST });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    stdout = result.stdout;
    results = SuiteResults.parse(JSON.parse(await fs.readFile(path.join(out, 'eval.json'), 'utf8')));
    clean = await tree(path.join(out, 'roman'));
  });

  it("evaluates a suite under chaos: every run listed with its seed, tree and faults, each done with the clean run's tree", async () => {
    assert.match(stdout, /2 specs, 2 run\(s\) each with chaos 0\.5 \(seeds from 11\) and one clean/);
    assert.match(stdout, /spec\s+runs\s+done\s+same tree\s+crashed\s+re-asks\/run\s+retries\/run\s+tokens\/run \(median\)/);
    assert.match(stdout, /^all\s+4\s+4 \(100%\)\s+4\s+0\s/m);
    assert.deepEqual(
      results.runs!.map((r) => [r.spec, r.repeat, r.seed, r.outcome, r.sameTree]),
      [
        ['roman', 0, null, 'done', null],
        ['roman', 1, 11, 'done', true],
        ['roman', 2, 12, 'done', true],
        ['vowels', 0, null, 'done', null],
        ['vowels', 1, 11, 'done', true],
        ['vowels', 2, 12, 'done', true],
      ],
    );
    assert.equal(results.runs![0]!.tree, clean);
    const faults = results.runs!.flatMap((r) => r.faults);
    assert.ok(faults.length >= 4, `${faults.length} faults injected at 0.5`);
    assert.ok(
      faults.every((f) => f.handled),
      JSON.stringify(faults.filter((f) => !f.handled)),
    );
    assert.deepEqual(results.robustness!.at(-1)!.faults, faults.length);
    // The spec's own run folder is the clean run's; each repeat has its own, with the same project name.
    assert.equal(await tree(path.join(out, 'repeat-2', 'roman')), clean);
    assert.match(await fs.readFile(path.join(out, 'eval.md'), 'utf8'), /## Robustness: 2 run\(s\) of each spec, chaos 0\.5 from seed 11/);
  });

  it('resumes chaos runs killed with -9 at random moments to the clean tree, meeting the same faults', async () => {
    // Random moments, drawn from a seed said on failure, over a run's ~40 progress lines; one chaos seed,
    // whose uninterrupted run (the suite's first repeat of roman) says which faults it meets.
    const when = Date.now() % 100_000;
    const draws = drawsFor(when, 'kill points');
    const faultsOf = async (dir: string) =>
      ((await readAppendLog(path.join(dir, '.sopworks', 'exchanges.jsonl'))).records as { injected?: { fault: string }; action: string; key: string | null }[])
        .filter((r) => r.injected)
        .map((r) => `${r.action} ${r.key ?? ''} ${r.injected!.fault}`)
        .sort();
    const expected = await faultsOf(path.join(out, 'repeat-1', 'roman'));
    for (const lines of [draws.int(3, 20), draws.int(21, 38)]) {
      const where = `killed after ${lines} progress lines (kill points drawn from ${when})`;
      const dir = await tempDir();
      assert.equal(await killedAfter(dir, lines, 11), 'SIGKILL', where);
      const project = path.join(dir, 'roman');
      const resumed = await sopworks(['resume', project], { cwd: dir, env: FAST });
      assert.equal(resumed.code, 0, `${where}: ${resumed.stdout}${resumed.stderr}`);
      assert.equal(await tree(project), clean, where);
      assert.deepEqual(await faultsOf(project), expected, where);
    }
  });

  it('refuses bad chaos flags before anything is written (exit 2)', async () => {
    const cwd = await tempDir();
    const cases: [string[], RegExp][] = [
      [['--chaos', '1.5'], /--chaos: must be the share of replies to spoil, from 0 to 1 \(e\.g\. 0\.3\), got "1\.5"/],
      [['--chaos', 'lots'], /--chaos: must be the share of replies to spoil/],
      [['--seed', '3'], /--seed chooses which replies --chaos spoils; without --chaos it changes nothing/],
      [['--chaos', '0.3', '--seed', '-1'], /--seed: must be a whole number from 0, got "-1"/],
      [['--llm', 'openai', '--chaos', '0.3'], /--chaos spoils a scripted scenario's replies; --llm openai is a real model/],
    ];
    for (const [flags, says] of cases) {
      const err: string[] = [];
      const args = flags.includes('openai')
        ? ['run', 'a thing', '--out', cwd, ...flags]
        : ['run', '--llm', `scripted:${scenario('roman')}`, '--out', cwd, ...flags];
      const code = await main(['node', 'sopworks', ...args], { out: () => {}, err: (line) => err.push(line) });
      assert.equal(code, 2, `${flags.join(' ')}: ${err.join('\n')}`);
      assert.match(err.join('\n'), says);
    }
    const resume = await sopworks(['resume', path.join(out, 'roman'), '--chaos', '2'], { cwd });
    assert.equal(resume.code, 2, resume.stderr);
    assert.match(resume.stderr, /--chaos: must be the share of replies to spoil/);
    assert.deepEqual(await fs.readdir(cwd), [], 'nothing was written');
  });
});
