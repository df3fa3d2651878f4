/** `sopworks review <project>`: the run report in the terminal, for a finished run and a cut-off one. */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, DEMO } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);

/** The lines of one section of the report, from its heading to the next blank line. */
function section(report: string, heading: RegExp): string[] {
  const lines = report.split('\n');
  const start = lines.findIndex((l) => heading.test(l));
  assert.ok(start >= 0, `no section ${heading} in:\n${report}`);
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

describe('sopworks review', function () {
  this.timeout(60_000);
  let root: string;
  let project: string;

  before(async () => {
    root = await tempDir('sopworks-review-cli-');
    const made = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', root, '--name', 'wordfreq'], { cwd: root });
    assert.equal(made.code, 0, made.stderr);
    project = path.join(root, 'wordfreq');
  });
  after(removeTempDirs);

  it('reports outcome, timeline, artifacts, QA rounds, usage and the git log of a run', async () => {
    const result = await sopworks(['review', project], { cwd: root });
    assert.equal(result.code, 0, result.stderr);
    const report = result.stdout;
    assert.match(report, /^wordfreq — a CLI that counts word frequencies in text files$/m);
    assert.match(report, /^Outcome {2}done — all tests pass$/m);

    const board = (await fs.readFile(path.join(project, '.sopworks', 'board.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const timeline = section(report, new RegExp(`^Timeline \\(${board.length} messages\\)$`));
    const columns = timeline.map((line) => line.trim().split(/\s{2,}/));
    assert.deepEqual(
      columns.map(([seq, , who, type]) => [seq, who, type]),
      board.map((m) => [String(m.seq), `${m.from} → ${m.to}`, m.type]),
    );
    assert.ok(
      columns.every(([, time]) => /^\+\d+\.\d+s$/.test(time!)),
      'each message shows when it came, from the start of the run',
    );
    const bugReport = board.findIndex((m) => m.type === 'BugReport');
    assert.match(timeline[bugReport]!, /qa → engineer\s+BugReport\s+tokenize splits on whitespace only/);

    const { stdout: log } = await exec('git', ['log', '--reverse', '--format=%h %s'], { cwd: project });
    const artifacts = section(report, /^Artifacts \(\d+\)$/);
    const prd = artifacts.find((l) => /\bPRD\b/.test(l))!;
    const prdCommit = log
      .split('\n')
      .find((l) => l.endsWith('docs: product requirements for wordfreq'))!
      .split(' ')[0]!;
    assert.match(prd, new RegExp(`msg-000002\\s+PRD\\s+product-manager\\s+docs/prd\\.md\\s+${prdCommit.slice(0, 7)}`));
    assert.ok(artifacts.some((l) => /Design\s+architect\s+docs\/design\.md\s/.test(l)));
    assert.ok(
      artifacts.some((l) => /Code\s+engineer\s+README\.md\s/.test(l)),
      "the README is the Engineer's, reviewed like any file",
    );
    assert.ok(artifacts.some((l) => /TestReport\s+qa\s+docs\/test-reports\/round-2\.md/.test(l)));

    const tests = section(report, /^Tests$/);
    assert.match(tests[0]!, /round 1 {2}failed \(4 passed, 4 failed\) {2}node --test/);
    assert.equal(tests.filter((l) => l.includes('✗')).length, 4);
    assert.match(tests.find((l) => l.includes('bug report'))!, new RegExp(`bug report msg-${String(board[bugReport].seq).padStart(6, '0')} → engineer`));
    assert.match(tests.at(-1)!, /round 2 {2}passed \(8 passed, 0 failed\)/);

    // Each criterion of the last coverage matrix, with its status and the tests that cite it.
    const criteria = section(report, /^Criteria \(round 2: 5 of 5 proven, P0 5 of 5\)$/);
    assert.deepEqual(
      criteria.map((l) =>
        l
          .trim()
          .split(/\s{2,}/)
          .slice(0, 4),
      ),
      [
        ['AC-1', 'P0', 'proven', '2/2 tests pass'],
        ['AC-2', 'P0', 'proven', '2/2 tests pass'],
        ['AC-3', 'P0', 'proven', '1/1 tests pass'],
        ['AC-4', 'P0', 'proven', '2/2 tests pass'],
        ['AC-5', 'P0', 'proven', '2/2 tests pass'],
      ],
    );

    const usage = section(report, /^Usage$/);
    assert.deepEqual(
      usage.slice(1, 6).map((l) => l.trim().split(/\s+/)[0]),
      ['product-manager', 'architect', 'engineer', 'qa', 'total'],
    );
    const runJson = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8'));
    const n = (x: number) => x.toLocaleString('en-US');
    assert.match(
      usage[5]!,
      // The scripted model says nothing of a cache: no cached tokens, no hit rate.
      new RegExp(`total\\s+${n(runJson.usage.total.calls)}\\s+${n(runJson.usage.total.promptTokens)}\\s+—\\s+—\\s+${n(runJson.usage.total.completionTokens)}`),
    );
    // Per action too, as the run summary shows it.
    const byAction = section(report, /^\s+role\/action\s+calls/);
    assert.deepEqual(
      byAction.map((l) => l.trim().split(/\s+/)[0]),
      [...Object.keys(runJson.usage.byAction), 'total'],
    );
    assert.match(report, /^Budget {3}none$/m, 'labels a person would write');
    assert.doesNotMatch(report, /costUsd|usd:/);

    const commits = log.trim().split('\n');
    const gitLog = section(report, new RegExp(`^Git log \\(${commits.length} commits\\)$`));
    assert.deepEqual(
      gitLog.map((l) => l.trim().split(/\s+/)[0]),
      commits.map((c) => c.split(' ')[0]!.slice(0, 7)),
    );
  });

  it('prints the usage tables alone with --usage, as the run’s end summary points to them', async () => {
    const full = await sopworks(['review', project], { cwd: root });
    const result = await sopworks(['review', '--usage', project], { cwd: root });
    assert.equal(result.code, 0, result.stderr);
    const tables = result.stdout.slice(result.stdout.indexOf('\nUsage\n'));
    assert.ok(full.stdout.includes(tables.trimEnd()), 'the same tables the whole report has');
    assert.match(result.stdout, /^\s+role\/action\s+calls/m, 'per step too');
    assert.doesNotMatch(result.stdout, /^Timeline|^Git log|^Artifacts/m, 'nothing else of the report');
  });

  it('fits the terminal width ($COLUMNS), cutting free text rather than wrapping tables', async () => {
    const result = await sopworks(['review', project], { cwd: root, env: { COLUMNS: '64' } });
    assert.equal(result.code, 0, result.stderr);
    const long = result.stdout.split('\n').filter((l) => [...l].length > 64);
    assert.deepEqual(long, []);
    // The elapsed column's width varies with the machine's speed (+7.1s, +12.3s), so the cut moves with it.
    assert.match(result.stdout, /^ +\d+ +\+\d+\.\ds +qa → engineer +BugReport +tokenize s.*…$/m, 'a long summary is cut with an ellipsis');
    const wide = await sopworks(['review', project], { cwd: root });
    assert.match(wide.stdout, /tokenize splits on whitespace only, so words keep their case and punctuation/, 'a pipe gets every word');
  });

  it('reviews a run cut off mid-way as far as it got, without touching its files', async () => {
    const cut = path.join(root, 'cut');
    await fs.cp(project, cut, { recursive: true, verbatimSymlinks: true });
    const boardFile = path.join(cut, '.sopworks', 'board.jsonl');
    const lines = (await fs.readFile(boardFile, 'utf8')).split('\n');
    const partial = `${lines.slice(0, 6).join('\n')}\n${lines[6]!.slice(0, 30)}`;
    await fs.writeFile(boardFile, partial);
    const runFile = path.join(cut, '.sopworks', 'run.json');
    const { finishedAt, outcome, reason, usage, wallMs, ...started } = JSON.parse(await fs.readFile(runFile, 'utf8'));
    assert.ok(finishedAt && outcome && reason && usage && wallMs !== undefined);
    await fs.writeFile(runFile, JSON.stringify(started));

    const result = await sopworks(['review', cut], { cwd: root });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Outcome {2}stopped before an outcome — no sopworks process is at work on it; `sopworks resume .*cut` continues it$/m);
    assert.equal(section(result.stdout, /^Timeline \(6 messages\)$/).length, 6);
    assert.match(result.stdout, /^Usage so far \(from the model exchanges\)$/m);
    assert.equal(await fs.readFile(boardFile, 'utf8'), partial, 'review is read-only: the half-written line stays');
  });

  it('ends quietly (exit 0) when its reader has gone away (`sopworks review … | head -1`)', async () => {
    const child = spawn(process.execPath, [BIN, 'review', project], { cwd: root, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    // Closed before the report is written: its first line meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(stderr, '');
  });

  it('refuses a folder that is not a run (exit 2), saying what to give instead', async () => {
    const result = await sopworks(['review', root], { cwd: root });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /is not a sopworks run: it has no \.sopworks\/board\.jsonl or \.sopworks\/run\.json/);
    assert.match(result.stderr, /output\/<project>/);
    const missing = await sopworks(['review', path.join(root, 'nope')], { cwd: root });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /is not a folder/);
  });
});
