/**
 * Done means covered (issue 40, Must 4 and 7): a run whose tests all pass but name no test of a P0
 * criterion is not done. The shipped scenario examples/leapyear-untested.yaml shows the criterion sent
 * back to QA and then proven; when QA's added tests still name none, the run ends criteria-unmet (exit 6),
 * naming the criterion — delivered, not done.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { Scenario } from '../../src/capabilities/model/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const SCENARIO = path.join(ROOT, 'examples', 'leapyear-untested.yaml');

interface Logged {
  action: string;
  messages: { role: string; content: string }[];
}

async function run(scenarioFile: string): Promise<{ code: number | null; stdout: string; project: string }> {
  const out = await tempDir('sopworks-criteria-gate-');
  const result = await sopworks(['run', '--llm', `scripted:${scenarioFile}`, '--out', out], { cwd: out });
  const project = result.stdout.match(/^Review {4}sopworks review .*the record: (.+)\/\.sopworks\/\)$/m)?.[1];
  assert.ok(project, `${result.stdout}\n${result.stderr}`);
  return { code: result.code, stdout: `${result.stdout}\n${result.stderr}`, project: path.resolve(out, project) };
}

const subjects = async (project: string) => (await exec('git', ['log', '--reverse', '--format=%s'], { cwd: project })).stdout.trim().split('\n');
const asked = async (project: string, action: string) =>
  ((await readAppendLog(path.join(project, '.sopworks', 'exchanges.jsonl'))).records as Logged[]).filter((e) => e.action === action);

describe('done means covered: a P0 criterion no test names', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('goes back to QA for its tests, and the run ends done once a passing test names it (examples/leapyear-untested.yaml)', async () => {
    const { code, stdout, project } = await run(SCENARIO);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /^Outcome {3}done — all tests pass$/m);
    assert.match(stdout, /^\s+Criteria\s+1 of 1 proven \(P0: 1 of 1\)$/m);
    const log = await subjects(project);
    const coverage = log.filter((s) => s.startsWith('test: coverage'));
    assert.deepEqual(
      coverage.map((s) => s.replace(/round \d+/, 'round n')),
      ['test: coverage after round n, 0 of 1 criteria proven (P0: 0 of 1)', 'test: coverage after round n, 1 of 1 criteria proven (P0: 1 of 1)'],
    );
    assert.ok(log.includes('test: add test/leapyear.test.js, test/cli.test.js'), 'the tests QA added are committed beside its first ones');
    // The matrix a person reads after each round: AC-1 untested, then proven by the test QA added.
    const commits = (await exec('git', ['log', '--reverse', '--format=%H', '--', 'docs/test-reports/coverage.md'], { cwd: project })).stdout.trim().split('\n');
    const pages = await Promise.all(commits.map(async (c) => (await exec('git', ['show', `${c}:docs/test-reports/coverage.md`], { cwd: project })).stdout));
    assert.deepEqual(
      pages.map((page) => page.split('\n').filter((line) => /^(0|1) of 1 criteria proven|^- \*\*AC-1\*\*|^ {2}- /.test(line))),
      [
        [
          '0 of 1 criteria proven (P0: 0 of 1; unmet: AC-1 untested). A criterion is proven by a passing test that names its id (`AC-3`, `test_ac3_…`, `TestAC3…`) and no failing one — or, one no automated test can prove, by a manual check its review accepted; P0 criteria must all be proven.',
          '- **AC-1** (P0, untested — no test cites it): `node src/cli.js 2000 1900` prints 2000 leap',
        ],
        [
          '1 of 1 criteria proven (P0: 1 of 1). A criterion is proven by a passing test that names its id (`AC-3`, `test_ac3_…`, `TestAC3…`) and no failing one — or, one no automated test can prove, by a manual check its review accepted; P0 criteria must all be proven.',
          '- **AC-1** (P0, proven): `node src/cli.js 2000 1900` prints 2000 leap',
          '  - passed: `AC-1: node src/cli.js 2000 1900 prints 2000 leap`',
        ],
      ],
    );
    assert.equal((await asked(project, 'declare_manual_criteria')).length, 1, 'asked which criteria no test can prove first: none');

    const [ask] = await asked(project, 'write_criterion_tests');
    assert.ok(ask, 'QA was asked once for the tests of the untested criterion');
    const prompt = ask.messages.find((m) => m.role === 'user')!.content;
    assert.match(prompt, /\*\*AC-1\*\* \(P0, untested — no test cites it\): `node src\/cli\.js 2000 1900` prints 2000 leap/);
    assert.match(prompt, /Name each test after the criterion it proves, its id in the name the test runner prints/);
    assert.match(prompt, /^### test\/leapyear\.test\.js$/m, 'it sees the tests it already wrote');
  });

  it('ends criteria-unmet (exit 6), naming the criterion, when the tests QA adds still name none', async () => {
    const scenario = Scenario.parse(parse(await fs.readFile(SCENARIO, 'utf8')));
    const added = scenario.replies.find((r) => r.action === 'write_criterion_tests')!;
    // Two different replies (the same one twice would be a loop, refused as such), neither naming AC-1.
    const unnamed = (title: string) => ({ ...added, reply: added.reply!.replace("'AC-1: node src/cli.js 2000 1900 prints 2000 leap'", `'${title}'`) });
    const tries = [unnamed('the CLI prints the verdicts'), unnamed('the CLI prints each verdict')];
    assert.ok(tries.every((t) => t.reply !== added.reply));
    // Asked twice which criteria no automated test can prove, QA says none both times.
    const noneManual = scenario.replies.find((r) => r.action === 'declare_manual_criteria')!;
    const file = path.join(await tempDir('sopworks-criteria-gate-scenario-'), 'unnamed.yaml');
    await fs.writeFile(file, stringify({ ...scenario, replies: [...scenario.replies.filter((r) => r !== added), ...tries, noneManual] }));

    const { code, stdout, project } = await run(file);
    assert.equal(code, 6, stdout);
    assert.match(stdout, /^Outcome {3}criteria-unmet — a P0 acceptance criterion is not proven: 0 of 1 criteria proven \(P0: 0 of 1; unmet: AC-1 untested\)$/m);
    assert.equal((await asked(project, 'write_criterion_tests')).length, 2, 'QA is asked twice at most');
    const tree = (await exec('git', ['ls-files'], { cwd: project })).stdout;
    assert.match(tree, /^test\/cli\.test\.js$/m, 'what was delivered is kept');
  });
});
