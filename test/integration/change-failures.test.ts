/**
 * The failure paths of `sopworks change`, each a clear outcome with the user's repository exactly as it
 * was: an edit that never applies, tests that failed on the base already (said, and not blamed on the
 * change), a change that breaks an existing test (a bug report, a fix, then green), and a budget hit
 * mid-change that `resume` continues to `done`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { GREETINGS_BRANCH as BRANCH, changeSetUp, GREETINGS_SCENARIO, git, type Reply, testsQaWrites } from '../helpers/change-repo.ts';
import { sopworks } from '../helpers/in-process.ts';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

const setUp = (edit: (replies: Reply[]) => Reply[], extra: Record<string, string> = {}) => changeSetUp(edit, { extra });

const isEdit = (r: Reply, action = 'edit_file') => r.role === 'engineer' && r.action === action;

describe('sopworks change: failure paths, deleted and renamed files', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('an edit that never applies fails the run saying why, nothing applied; resume asks it afresh and finishes', async () => {
    const wrong: Reply = {
      role: 'engineer',
      action: 'edit_file',
      key: 'src/greet.js',
      reply: '<<<<<<< SEARCH\nexport function greet(person) {\n=======\nexport function greet(person, options) {\n>>>>>>> REPLACE\n',
    };
    // Three replies that never apply; the right one is there for `resume`, which asks afresh.
    const run = await setUp(
      (replies) => {
        const good = replies.filter((r) => isEdit(r)).at(-1)!;
        return replies.flatMap((r) => (isEdit(r) ? [] : [r])).concat([wrong, wrong, wrong, good]);
      },
      { 'AGENTS.md': 'Keep greetings short.\n' },
    );
    // The person's instructions and the repository's, read once at the start and kept for resume.
    const mine = path.join(run.dir, 'mine.md');
    await fs.writeFile(mine, 'Comment in English.\n');
    const missing = await run.change(['--instructions', path.join(run.dir, 'nope.md')]);
    assert.equal(missing.code, 2, missing.stdout + missing.stderr);
    assert.match(missing.stderr, /Cannot read the instructions file .*nope\.md: ENOENT/);
    await assert.rejects(fs.stat(run.worktree), 'refused before anything is written');
    const result = await run.change(['--instructions', mine]);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /Outcome\s+failed — engineer failed in step "nextFile": src\/greet\.js, step "editing": The model's reply for \{role: engineer, action: edit_file, key: src\/greet\.js\} was still invalid after 3 attempts: block 1 of 1: its SEARCH text is not in src\/greet\.js/,
    );
    assert.match(result.stdout, /The nearest lines in the file now/);
    run.untouched();
    // The branch has the documents so far, and src/greet.js as it was.
    assert.equal(git(run.repo, 'diff', '--name-only', `main...${BRANCH}`, '--', 'src'), '');
    assert.match(result.stdout, /Continue it with: sopworks resume/);
    const instructions = async () => JSON.parse(await fs.readFile(path.join(run.worktree, '.sopworks', 'run.json'), 'utf8')).instructions;
    const given = await instructions();
    assert.match(given, /^### From Instructions given for this run:\nComment in English\.\n\n### From AGENTS\.md:\nKeep greetings short\.$/);
    await fs.writeFile(path.join(run.worktree, 'AGENTS.md'), 'Changed meanwhile.\n');
    // Resumed, the edit is asked afresh (not answered from the three invalid replies on record), and the change is finished.
    const resumed = await sopworks(['resume', run.worktree], { cwd: ROOT });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, /Outcome\s+done/);
    assert.match(git(run.repo, 'show', `${BRANCH}:src/greet.js`), /Bonjour/);
    assert.equal(await instructions(), given, 'resume shows the roles what they saw before');
    run.untouched();
  });

  it('tests that failed on the base already are said, and not blamed on the change', async () => {
    const broken =
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n\ntest('an old bug', () => {\n  assert.equal(1 + 1, 3);\n});\n";
    const run = await setUp((replies) => replies, { 'test/old-bug.test.js': broken });
    const result = await run.change();
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /tests base: FAILED before the change \(4 passed, 1 failed\)/);
    assert.match(
      result.stdout,
      /Outcome\s+done — the change's tests pass; the only failures were failing on the base already \(not caused by the change\): failing tests: an old bug/,
    );
    const baseline = await fs.readFile(path.join(run.worktree, '.sopworks', 'documents', 'baseline-tests.md'), 'utf8');
    assert.match(baseline, /## Failing on the base already\n\n- an old bug/);
    // QA is told which tests failed there, each with the first line of why.
    const exchanges = (await fs.readFile(path.join(run.worktree, '.sopworks', 'exchanges.jsonl'), 'utf8')).trim().split('\n');
    const qa = exchanges.map((line) => JSON.parse(line) as { action: string; messages: { content: string }[] }).find((e) => e.action === 'write_change_tests')!;
    assert.match(
      qa.messages.at(-1)!.content,
      /failed on the base already, before the change: an old bug \(Expected values to be strictly equal:\); \(they are not the change's to fix/,
    );
    run.untouched();
  });

  it('a change that breaks an existing test gets a bug report, a fix, and then passes', async () => {
    const breaking = (r: Reply): Reply => ({ ...r, reply: r.reply!.replace('`Hello, ${name}!`', '`Hello ${name}`') });
    const run = await setUp((replies) => {
      const out: Reply[] = [];
      for (const r of replies) {
        out.push(isEdit(r) && r.reply?.includes('GREETINGS') ? breaking(r) : r);
        if (r.role === 'qa' && r.action === 'write_change_tests') {
          out.push(
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
          );
        }
      }
      return out;
    });
    const result = await run.change();
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /tests round 1: failed/);
    assert.match(result.stdout, /BugReport → engineer/);
    const base = Number(result.stdout.match(/tests base: passed \((\d+) passed, 0 failed\)/)?.[1]);
    assert.match(result.stdout, new RegExp(`tests round 2: passed \\(${base + (await testsQaWrites(GREETINGS_SCENARIO))} passed, 0 failed\\)`));
    // The failed round is no commit on the branch: the fix is, saying what it fixed; the reports are in the run folder.
    const log = git(run.repo, 'log', '--reverse', '--format=%an|%s', `main..${BRANCH}`).trim().split('\n');
    assert.deepEqual(log, [
      'Engineer|feat: Greetings in French (src/greet.js)',
      'QA Engineer|test: Greetings in French',
      'Engineer|fix: en must render `Hello, ${name}!` (src/greet.js)',
    ]);
    const documents = path.join(run.worktree, '.sopworks', 'documents');
    assert.match(await fs.readFile(path.join(documents, 'bug-reports', 'bug-1.md'), 'utf8'), /^# Bug report 1/);
    assert.match(await fs.readFile(path.join(documents, 'test-reports', 'round-1.md'), 'utf8'), /FAILED/);
    run.untouched();
  });

  it("a test QA wrote that cannot hold is QA's to rewrite: the triage names it, QA fixes it, and the next round passes, no source file sent to the Engineer", async () => {
    // QA's first tests read AC-1 too strictly (no space before the "!"); the code is right.
    const strict = (r: Reply): Reply => ({ ...r, reply: r.reply!.replace("'Bonjour, Ada !'", "'Bonjour, Ada!'") });
    const run = await setUp((replies) => {
      const out: Reply[] = [];
      for (const r of replies) {
        if (r.role === 'qa' && r.action === 'write_change_tests') {
          out.push(
            strict(r),
            {
              role: 'qa',
              action: 'write_change_bug_report',
              json: {
                summary: "AC-1's test expects 'Bonjour, Ada!', but the French greeting puts a space before '!', as the criterion's example does.",
                failingTests: ['AC-1: greet speaks French'],
                files: [],
                ownTests: [{ path: 'test/greet-lang.test.js', problem: "AC-1 must expect 'Bonjour, Ada !' (French puts a space before '!')" }],
              },
            },
            // First, an existing test of the repository's own made to pass: refused, the rule said again.
            {
              role: 'qa',
              action: 'fix_change_tests',
              reply: "test/greet.test.js\n```js\nimport { test } from 'node:test';\ntest('greet says hello', () => {});\n```\n",
            },
            { ...r, action: 'fix_change_tests' },
          );
        } else out.push(r);
      }
      return out;
    });
    const result = await run.change();
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /tests round 1: failed/);
    assert.doesNotMatch(result.stdout, /BugReport → engineer/, 'no source file went to the Engineer');
    assert.match(result.stdout, /tests round 2: passed/);
    const exchanges = (await fs.readFile(path.join(run.worktree, '.sopworks', 'exchanges.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; messages: { content: string }[] });
    const triage = exchanges.find((e) => e.action === 'write_change_bug_report')!.messages.at(-1)!.content;
    assert.match(triage, /`ownTests`: the test files you wrote for this change whose expectation is wrong/);
    const fix = exchanges.find((e) => e.action === 'fix_change_tests')!.messages.at(-1)!.content;
    assert.match(fix, /- `test\/greet-lang\.test\.js`: AC-1 must expect 'Bonjour, Ada !'/);
    assert.match(fix, /Reply only with files among these, each whole: `test\/greet-lang\.test\.js`; no other file is this step's to write\./);
    assert.match(result.stdout, /reply invalid \(attempt 1\), asking again/);
    const refused = exchanges.filter((e) => e.action === 'fix_change_tests').flatMap((e) => e.messages.map((m) => m.content));
    assert.ok(
      refused.some((m) => /`test\/greet\.test\.js` is not among the files this step may write/.test(m)),
      'the refusal says why',
    );
    assert.equal(
      git(run.repo, 'show', `${BRANCH}:test/greet.test.js`),
      git(run.repo, 'show', 'main:test/greet.test.js'),
      "the repository's own test is as it was",
    );
    assert.match(fix, /assert\.equal\(greet\('Ada', \{ lang: 'fr' \}\), 'Bonjour, Ada!'\)/, 'shown the test as it failed');
    assert.match(git(run.repo, 'show', `${BRANCH}:test/greet-lang.test.js`), /'Bonjour, Ada !'/);
    const log = git(run.repo, 'log', '--reverse', '--format=%an|%s', `main..${BRANCH}`).trim().split('\n');
    assert.equal(log.filter((line) => line.startsWith('Engineer|fix')).length, 0, log.join('\n'));
    run.untouched();
  });

  it('deletes a file and renames another, each in one commit that git sees as such', async () => {
    const run = await setUp(
      (replies) =>
        replies.flatMap((r) => {
          if (r.role === 'architect' && r.action === 'write_change_tasks') {
            const tasks = (r.json as { tasks: unknown[] }).tasks;
            return [
              {
                ...r,
                json: {
                  tasks: [
                    ...tasks,
                    { file: 'src/old-helper.js', op: 'delete', from: null, description: 'Unused: remove it.', dependsOn: [] },
                    {
                      file: 'src/lib/util.js',
                      op: 'rename',
                      from: 'src/util.js',
                      description: 'Move it under src/lib/ and say so in its comment.',
                      dependsOn: [],
                    },
                  ],
                },
              },
            ];
          }
          if (r.role === 'qa' && r.action === 'write_change_tests') {
            return [
              {
                role: 'engineer',
                action: 'edit_file',
                key: 'src/lib/util.js',
                reply: '<<<<<<< SEARCH\n// Utilities.\n=======\n// Utilities (moved to src/lib/).\n>>>>>>> REPLACE\n',
              },
              { role: 'engineer', action: 'review_edit', key: 'src/lib/util.js', json: { approved: true, issues: [] } },
              r,
            ];
          }
          return [r];
        }),
      { 'src/old-helper.js': 'export const old = 1;\n', 'src/util.js': '// Utilities.\nexport const twice = (n) => 2 * n;\n' },
    );
    const result = await run.change();
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const log = git(run.repo, 'log', '--format=%an|%s', `main..${BRANCH}`);
    assert.match(log, /Engineer\|refactor: remove src\/old-helper\.js/);
    assert.match(log, /Engineer\|refactor: move src\/util\.js to src\/lib\/util\.js/);
    const changes = git(run.repo, 'diff', '--name-status', '-M', `main...${BRANCH}`, '--', 'src');
    assert.match(changes, /^D\tsrc\/old-helper\.js$/m);
    assert.match(changes, /^R\d+\tsrc\/util\.js\tsrc\/lib\/util\.js$/m);
    assert.equal(git(run.repo, 'show', `${BRANCH}:src/lib/util.js`), '// Utilities (moved to src/lib/).\nexport const twice = (n) => 2 * n;\n');
    // The work tree follows the branch: the removed files are gone from it too.
    assert.equal(git(run.worktree, 'status', '--porcelain'), '');
    run.untouched();
  });

  it('a budget hit mid-change stops with budget-exhausted, and resume continues to done', async () => {
    const run = await setUp((replies) => replies);
    const stopped = await run.change(['--max-tokens', '9000']);
    assert.equal(stopped.code, 3, stopped.stdout + stopped.stderr);
    assert.match(stopped.stdout, /Outcome\s+budget-exhausted/);
    run.untouched();
    const resumed = await sopworks(['resume', run.worktree, '--max-tokens', '200000'], { cwd: ROOT });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, /Outcome\s+done — the existing tests and the change's tests pass/);
    // Nothing was done twice: the change's commits, once each.
    const subjects = git(run.repo, 'log', '--reverse', '--format=%s', `main..${BRANCH}`).trim().split('\n');
    assert.deepEqual(subjects, ['feat: Greetings in French (src/greet.js)', 'test: Greetings in French']);
    run.untouched();
  });
});
