/**
 * `--until prd|design|tasks`: a run stops after that artifact — committed, nothing after it begun —
 * with outcome `paused` (exit 5), and `resume` goes on to the end, to the repository a run never
 * stopped gives. Resumed after every kind of stop on the way: paused again at a later point, Ctrl-C,
 * kill -9, a step that failed. A point no SOP has is refused before anything is written. One model
 * named two ways (relative at the start, absolute or spelt otherwise on resume) is counted once.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import YAML from 'yaml';
import { demoTree } from '../helpers/demo-tree.ts';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, DEMO, ROOT } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const git = (project: string, ...args: string[]) => execFileSync('git', args, { cwd: project, encoding: 'utf8' }).trim();
const boardOf = async (project: string): Promise<{ type: string; payload: any }[]> =>
  (await fs.readFile(path.join(project, '.sopworks', 'board.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
const runJson = async (project: string) => JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8'));

/** Asserts the run went on to the end: the demo's repository, every commit once. */
async function finishedAsTheDemo(project: string): Promise<void> {
  assert.equal(git(project, 'rev-parse', 'HEAD^{tree}'), await demoTree());
  const subjects = git(project, 'log', '--format=%s').split('\n');
  assert.equal(subjects.length, 18);
  assert.equal(new Set(subjects).size, subjects.length, 'no commit twice');
  assert.equal((await runJson(project)).outcome, 'done');
}

describe('sopworks run --until: stop after an artifact, resume to the end', function () {
  this.timeout(240_000);
  let root: string;
  let out: string;
  const run = (name: string, ...extra: string[]) => sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--name', name, ...extra], { cwd: root });
  const resume = (name: string, ...extra: string[]) => sopworks(['resume', path.join(out, name), ...extra], { cwd: root });

  before(async () => {
    root = await tempDir('sopworks-until-');
    out = path.join(root, 'output');
  });
  after(removeTempDirs);

  const points = [
    { point: 'prd', last: 'PRD', commits: ['docs: product requirements for wordfreq'] },
    { point: 'design', last: 'Design', commits: ['docs: product requirements for wordfreq', 'docs: system design'] },
    {
      point: 'tasks',
      last: 'TaskGraph',
      commits: ['docs: product requirements for wordfreq', 'docs: system design', 'docs: task graph of 7 files'],
    },
  ];

  it('stops after the PRD, the design or the task graph — paused, exit 5, that artifact committed and nothing after it — and resume goes on to the end', async () => {
    // The PRD's run names its scenario relative to where it starts: one model, counted once, on resume too.
    const relative = ['--llm', `scripted:${path.relative(root, DEMO)}`];
    const stopped = await Promise.all(points.map(({ point }) => run(`until-${point}`, '--until', point, '--json', ...(point === 'prd' ? relative : []))));
    for (const [i, { point, last, commits }] of points.entries()) {
      const project = path.join(out, `until-${point}`);
      const result = stopped[i]!;
      assert.equal(result.code, 5, result.stderr);
      const summary = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
      assert.equal(summary.type, 'summary');
      assert.equal(summary.outcome, 'paused');
      assert.equal(summary.exitCode, 5);
      assert.deepEqual(summary.next, [`sopworks resume ${path.relative(root, project)}`]);
      assert.match(result.stderr, /Stopped early, as asked\. Go on to the end with: sopworks resume/);
      const record = await runJson(project);
      assert.equal(record.outcome, 'paused');
      assert.match(record.reason, new RegExp(`stopped at ${point} \\(\\w[\\w-]*\\), as --until ${point} asked`));
      assert.equal((await boardOf(project)).at(-1)!.type, last, 'the artifact is the last message');
      assert.deepEqual(git(project, 'log', '--reverse', '--format=%s').split('\n').slice(1), commits, 'committed, and nothing after it');
    }
    // Resumed from another folder, or with the scenario spelt another way: still one model.
    const respelt = `scripted:${ROOT}/./examples//${path.basename(DEMO)}`;
    const resumed = await Promise.all([
      sopworks(['resume', path.join(out, 'until-prd')], { cwd: out }),
      resume('until-design', '--llm', respelt),
      resume('until-tasks'),
    ]);
    for (const [i, { point }] of points.entries()) {
      assert.equal(resumed[i]!.code, 0, resumed[i]!.stderr);
      await finishedAsTheDemo(path.join(out, `until-${point}`));
      assert.doesNotMatch(resumed[i]!.stdout, /^ {2}model {2,}calls/m, `${point}: no per-model table, there is one model`);
      const { usage } = await runJson(path.join(out, `until-${point}`));
      assert.deepEqual(Object.keys(usage.byModel), [`scripted:${DEMO}`], `${point}: one model counted once`);
      assert.equal(usage.byModel[`scripted:${DEMO}`].calls, usage.total.calls, `${point}: every call in that one row`);
    }
  });

  it('resumes after every kind of stop on the way: paused again later, Ctrl-C, kill -9, a step that failed', async () => {
    const name = 'every-stop';
    const project = path.join(out, name);
    assert.equal((await run(name, '--until', 'prd')).code, 5);
    // Paused again, at a later point.
    const later = await resume(name, '--until', 'design');
    assert.equal(later.code, 5, later.stderr);
    assert.equal((await boardOf(project)).at(-1)!.type, 'Design');
    // Ctrl-C while files are being written.
    const child = spawn(process.execPath, [BIN, 'resume', project], { cwd: root, env: cleanEnv({ SOPWORKS_SCRIPTED_LATENCY_MS: '100' }), stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    while (!(await boardOf(project)).some((m) => m.type === 'Code')) await sleep(20);
    child.kill('SIGINT');
    assert.equal(await exited, 130);
    assert.equal((await runJson(project)).outcome, 'interrupted');
    // kill -9 a little later.
    const killed = spawn(process.execPath, [BIN, 'resume', project], { cwd: root, env: cleanEnv({ SOPWORKS_SCRIPTED_LATENCY_MS: '100' }), stdio: 'ignore' });
    const gone = new Promise((resolve) => killed.on('exit', resolve));
    const codeBefore = (await boardOf(project)).filter((m) => m.type === 'Code').length;
    while ((await boardOf(project)).filter((m) => m.type === 'Code').length <= codeBefore) await sleep(20);
    killed.kill('SIGKILL');
    await gone;
    // A step that fails: a scenario without the Engineer's fix after QA's bug report.
    const scenario = YAML.parse(await fs.readFile(DEMO, 'utf8'));
    scenario.replies = scenario.replies.filter((r: any) => r.action !== 'fix_file');
    const broken = path.join(root, 'no-fix.yaml');
    await fs.writeFile(broken, YAML.stringify(scenario));
    const failed = await resume(name, '--llm', `scripted:${broken}`);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match((await runJson(project)).reason, /no reply left for \{role: engineer, action: fix_file/);
    // The model given to a resume is kept: the whole scenario again.
    const last = await resume(name, '--llm', `scripted:${DEMO}`);
    assert.equal(last.code, 0, last.stdout);
    await finishedAsTheDemo(project);
    const types = (await boardOf(project)).map((m) => m.type);
    assert.deepEqual(
      ['PRD', 'Design', 'TaskGraph', 'Tests', 'Outcome'].map((t) => types.filter((x) => x === t).length),
      [1, 1, 1, 1, 1],
      'nothing made twice',
    );
  });

  // Stopped before its --until point, then continued without --until: the point holds (the answers to
  // --clarify's questions are in clarify.test.ts).
  it('keeps --until prd across a step that failed before the PRD: resume stops at the PRD, nothing after it begun', async () => {
    const name = 'kept';
    const project = path.join(out, name);
    const scenario = YAML.parse(await fs.readFile(DEMO, 'utf8'));
    scenario.replies = scenario.replies.filter((r: any) => r.action !== 'revise_prd');
    const broken = path.join(root, 'no-revise.yaml');
    await fs.writeFile(broken, YAML.stringify(scenario));
    const failed = await sopworks(['run', '--llm', `scripted:${broken}`, '--out', out, '--name', name, '--until', 'prd'], { cwd: root });
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.ok(!(await boardOf(project)).some((m) => m.type === 'PRD'), 'it stopped before the PRD');
    const resumed = await resume(name, '--llm', `scripted:${DEMO}`);
    assert.equal(resumed.code, 5, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, /Outcome\s+paused — stopped at prd \(.*\), as --until prd asked/);
    assert.deepEqual(
      (await boardOf(project)).map((m) => m.type),
      ['Requirement', 'PRD'],
    );
    assert.equal((await runJson(project)).until, 'prd');
  });

  it('refuses a point no SOP of the company stops at, before anything is written', async () => {
    const refused = await run('nowhere', '--until', 'code');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--until code: no SOP of this company has a stop point "code"/);
    assert.match(refused.stderr, /Stop at one of: prd, design, tasks/);
    await assert.rejects(fs.access(path.join(out, 'nowhere')), 'no project folder');
  });
});
