/**
 * Everything a run has, a change has: a repository without tests (said so; QA writes the first ones),
 * approvals (`--approve`, `approve`, `resume`), record and replay, and a crash mid-commit that `resume`
 * continues without doing anything twice — the user's repository untouched throughout.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { GREETINGS_BRANCH as BRANCH, changeSetUp, GREETINGS_SCENARIO, git, testsQaWrites } from '../helpers/change-repo.ts';
import { sopworks } from '../helpers/in-process.ts';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

describe('sopworks change: what every run has', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('says a repository has no tests, and QA writes the first ones', async () => {
    const run = await changeSetUp((replies) => replies, { without: ['test'] });
    const result = await run.change();
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /tests base: the repository has no tests; QA writes the first ones/);
    assert.match(result.stdout, new RegExp(`tests round 1: passed \\(${await testsQaWrites(GREETINGS_SCENARIO)} passed, 0 failed\\)`));
    assert.match(await fs.readFile(path.join(run.worktree, '.sopworks', 'documents', 'baseline-tests.md'), 'utf8'), /no tests to run on the base/);
    const exchanges = await fs.readFile(path.join(run.worktree, '.sopworks', 'exchanges.jsonl'), 'utf8');
    assert.match(exchanges, /The repository had no tests: yours are its first/);
    run.untouched();
  });

  it('holds the code for a person (--approve code), and resume goes on once it is approved', async () => {
    const run = await changeSetUp();
    const held = await run.change(['--approve', 'code']);
    assert.equal(held.code, 4, held.stdout + held.stderr);
    assert.match(held.stdout, /Outcome\s+awaiting-approval — waiting for a person to approve code src\/greet\.js from engineer/);
    const approved = await sopworks(['approve', run.worktree], { cwd: ROOT });
    assert.equal(approved.code, 0, approved.stdout + approved.stderr);
    const resumed = await sopworks(['resume', run.worktree], { cwd: ROOT });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, /Outcome\s+done/);
    run.untouched();
  });

  it('records its replies, and the recording replays the same change on another copy', async () => {
    const first = await changeSetUp();
    const recording = path.join(first.dir, 'recorded.yaml');
    assert.equal((await first.change(['--record', recording])).code, 0);
    const second = await changeSetUp();
    const replay = await sopworks(['change', second.repo, '--llm', `scripted:${recording}`, '--out', path.join(second.dir, 'out')], { cwd: ROOT });
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.equal(git(second.repo, 'show', `${BRANCH}:src/greet.js`), git(first.repo, 'show', `${BRANCH}:src/greet.js`));
    assert.equal(git(second.repo, 'show', `${BRANCH}:test/greet-lang.test.js`), git(first.repo, 'show', `${BRANCH}:test/greet-lang.test.js`));
  });

  it('starts an existing branch again from the base only with --force', async () => {
    const run = await changeSetUp();
    assert.equal((await run.change()).code, 0);
    const again = await run.change();
    assert.equal(again.code, 2);
    assert.match(again.stderr, /The branch sopworks\/let-greet-take-language-option already exists/);
    const forced = await run.change(['--force']);
    assert.equal(forced.code, 0, forced.stdout + forced.stderr);
    assert.match(forced.stderr, /Replacing the existing project .*greetings-let-greet-take-language-option \(--force\)/);
    assert.equal(git(run.repo, 'rev-list', '--count', `main..${BRANCH}`).trim(), '2', 'the change once: its file and its tests');
    run.untouched();
  });

  it('a task that would edit a binary file goes back to the Architect with the reason, then ends the run saying so', async () => {
    const binaryTask = { tasks: [{ file: 'assets/logo.png', op: 'modify', from: null, description: 'Recolour the logo.', dependsOn: [] }] };
    const run = await changeSetUp((replies) =>
      replies.flatMap((r) =>
        r.role === 'architect' && r.action === 'write_change_tasks'
          ? [
              { ...r, json: binaryTask },
              { role: 'architect', action: 'fix_change_tasks', json: binaryTask },
              { role: 'architect', action: 'fix_change_tasks', json: { tasks: [{ ...binaryTask.tasks[0]!, description: 'Recolour the logo, again.' }] } },
            ]
          : [r],
      ),
    );
    const result = await run.change();
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /Outcome\s+failed — the change tasks are still invalid after 2 corrections: The change tasks are invalid:\n- "assets\/logo\.png" is a binary file: it cannot be edited as text/,
    );
    const exchanges = await fs.readFile(path.join(run.worktree, '.sopworks', 'exchanges.jsonl'), 'utf8');
    assert.match(exchanges, /is a binary file: it cannot be edited as text/, 'the Architect was told why');
    run.untouched();
  });

  it('is killed mid-commit, and resume finishes it, each artifact committed once', async () => {
    const run = await changeSetUp();
    const killed = await run.change([], { SOPWORKS_CRASH_AT: 'git.commit:2' });
    assert.notEqual(killed.code, 0);
    assert.doesNotMatch(killed.stdout, /Outcome/);
    const resumed = await sopworks(['resume', run.worktree], { cwd: ROOT });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, /Outcome\s+done/);
    const subjects = git(run.repo, 'log', '--reverse', '--format=%s', `main..${BRANCH}`).trim().split('\n');
    assert.deepEqual(subjects, ['feat: Greetings in French (src/greet.js)', 'test: Greetings in French']);
    assert.equal(git(run.worktree, 'status', '--porcelain'), '');
    run.untouched();
  });
});
