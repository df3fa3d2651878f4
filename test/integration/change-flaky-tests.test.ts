/**
 * `sopworks change` on a repository whose one existing test is flaky: it fails on its second run only
 * (a counter it keeps in a file of its own), so it passes on the base, fails in round 1 and passes when
 * the round runs again. The run ends done, naming the flaky test and what it was seen doing in the
 * summary and the round's report — and a real new failure beside it is still blamed on the change. A
 * kill -9 during either re-run resumes to the uninterrupted run's branch, with nothing of the re-runs left.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { GREETINGS_BRANCH as BRANCH, changeSetUp, git, type Reply } from '../helpers/change-repo.ts';
import { sopworks } from '../helpers/in-process.ts';
import { BIN, ROOT } from '../helpers/paths.ts';
import { cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

/** A test that counts its runs in test/runs.txt and fails on the second: deterministic, whatever the machine. */
const FLAKY = {
  'test/runs.txt': '0\n',
  'test/clock.test.js': `import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

const file = new URL('./runs.txt', import.meta.url);

test('the clock ticks', () => {
  const runs = Number(fs.readFileSync(file, 'utf8')) + 1;
  fs.writeFileSync(file, \`\${runs}\\n\`);
  assert.notEqual(runs, 2, 'fails on its second run only');
});
`,
};

const isEdit = (r: Reply) => r.role === 'engineer' && r.action === 'edit_file';
const roundReport = (worktree: string, n: number) => fs.readFile(path.join(worktree, '.sopworks', 'documents', 'test-reports', `round-${n}.md`), 'utf8');

describe('sopworks change: flaky tests', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('a test that fails in a round and passes on its re-run is flaky: named, not blamed, and the run ends done', async () => {
    const run = await changeSetUp((replies) => replies, { extra: FLAKY });
    const result = await run.change();
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /tests round 1: failed/);
    assert.match(result.stdout, /round 1 re-run: passed/);
    assert.match(result.stdout, /base re-run: passed/);
    assert.match(
      result.stdout,
      /Outcome\s+done — the change's tests pass; the other failures were flaky \(seen passing and failing on the same code\) or failing on the base already \(not caused by the change\): flaky, not blamed on the change: the clock ticks \(failed in round 1, passed on its re-run\)/,
    );
    assert.match(
      result.stdout,
      /Tests\s+round 1 failed \(\d+ passed, 1 failed; flaky, not blamed: the clock ticks \(failed in round 1, passed on its re-run\)\)/,
    );
    assert.doesNotMatch(result.stdout, /BugReport/, 'no bug report for a flaky test');
    // `sopworks review` (and the workbench's round card, from the same report) says it too.
    const review = await sopworks(['review', run.worktree], { cwd: ROOT });
    assert.equal(review.code, 0, review.stdout + review.stderr);
    assert.match(review.stdout, /round 1 {2}failed \(\d+ passed, 1 failed\), 1 flaky \(not blamed\)/);
    assert.match(review.stdout, /~ the clock ticks: flaky, not blamed \(failed in round 1, passed on its re-run\)/);
    const report = await roundReport(run.worktree, 1);
    assert.match(report, /Nothing fails that did not fail on the base: the change is not blamed/);
    assert.match(
      report,
      /## Flaky tests\n\nSeen passing and failing on the same code \(run again\): not blamed on the change\.\n\n- the clock ticks: failed in round 1, passed on its re-run/,
    );
    // The re-runs left nothing in the work tree: no copy of the base, nothing the runner wrote.
    await assert.rejects(fs.stat(path.join(run.worktree, '.sopworks', 'base-tree')));
    run.untouched();
  });

  it('a real new failure beside a flaky one is still blamed: a bug report naming it alone, then a fix', async () => {
    const breaking = (r: Reply): Reply => ({ ...r, reply: r.reply!.replace('`Hello, ${name}!`', '`Hello ${name}`') });
    const run = await changeSetUp(
      (replies) =>
        replies.flatMap((r) => {
          if (isEdit(r) && r.reply?.includes('GREETINGS')) return [breaking(r)];
          if (r.role !== 'qa' || r.action !== 'write_change_tests') return [r];
          return [
            r,
            {
              role: 'qa',
              action: 'write_change_bug_report',
              json: {
                summary: 'The English greeting lost its comma and exclamation mark.',
                failingTests: ['greet says hello', 'AC-2: greet is English by default'],
                files: [{ path: 'src/greet.js', problem: 'en must render `Hello, ${name}!`' }],
                ownTests: [],
              },
            },
            {
              role: 'engineer',
              action: 'fix_edit',
              key: 'src/greet.js',
              reply:
                '<<<<<<< SEARCH\nconst GREETINGS = { en: (name) => `Hello ${name}`,\n=======\nconst GREETINGS = { en: (name) => `Hello, ${name}!`,\n>>>>>>> REPLACE\n',
            },
            { role: 'engineer', action: 'review_fix_edit', key: 'src/greet.js', json: { approved: true, issues: [] } },
          ];
        }),
      { extra: FLAKY },
    );
    const result = await run.change();
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /BugReport → engineer/);
    assert.match(result.stdout, /tests round 2: passed/);
    const report = await roundReport(run.worktree, 1);
    assert.match(report, /Something fails that did not fail on the base: the change is blamed/);
    assert.match(report, /New failures \(not failing on the base, and failing again when run again\): greet says hello\n/);
    assert.match(report, /New failures of the change's own tests \(never excused as flaky\): AC-2: greet is English by default/);
    assert.match(report, /- the clock ticks: failed in round 1, passed on its re-run/);
    // The prompt QA wrote its bug report from said the flaky test was set aside already.
    const prompts = await fs.readFile(path.join(run.worktree, '.sopworks', 'exchanges.jsonl'), 'utf8');
    assert.match(prompts, /These tests are flaky/);
    run.untouched();
  });

  for (const [during, line] of [
    ["the round's re-run", /▶ tests round 1 re-run/],
    ["the base's re-run", /▶ tests base re-run/],
  ] as const) {
    it(`a kill -9 during ${during} resumes to the branch of the uninterrupted run`, async () => {
      const whole = await changeSetUp((replies) => replies, { extra: FLAKY });
      const uninterrupted = await whole.change();
      assert.equal(uninterrupted.code, 0, uninterrupted.stdout + uninterrupted.stderr);
      const run = await changeSetUp((replies) => replies, { extra: FLAKY });
      const killed = await changeUntilKilled(run.repo, run.scenarioFile, path.join(run.dir, 'out'), (out) => line.test(out));
      assert.equal(killed.signal, 'SIGKILL', `the run was killed before it finished:\n${killed.stdout}`);
      const resumed = await sopworks(['resume', run.worktree], { cwd: ROOT });
      assert.equal(resumed.code, 0, `killed after:\n${killed.stdout}\nresumed:\n${resumed.stdout}${resumed.stderr}`);
      assert.match(resumed.stdout, /Outcome\s+done — .*flaky, not blamed on the change: the clock ticks/);
      const tree = (repo: string) => git(repo, 'rev-parse', `${BRANCH}^{tree}`).trim();
      assert.equal(tree(run.repo), tree(whole.repo));
      await assert.rejects(fs.stat(path.join(run.worktree, '.sopworks', 'base-tree')), 'the copy of the base is gone');
      run.untouched();
    });
  }
});

/** Starts the change as a child and SIGKILLs it once `kill(stdout)` says so; resolves with the lines printed. */
function changeUntilKilled(repo: string, scenario: string, out: string, kill: (stdout: string) => boolean) {
  return new Promise<{ signal: string | null; stdout: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'change', repo, '--llm', `scripted:${scenario}`, '--out', out], {
      cwd: ROOT,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!child.killed && kill(stdout)) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ signal, stdout }));
  });
}
