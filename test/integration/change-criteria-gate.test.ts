/**
 * Done means covered, for a change (issue 40, Must 4): a change run ends done only when every criterion
 * of its change request — its AC-n and what it must keep working, KW-n — is proven by a passing test that
 * names it. The repository's own tests name no KW id, so a KW no test of QA's names goes back to QA
 * (write_change_criterion_tests, twice at most), and the run ends criteria-unmet (exit 6), naming it,
 * when QA's tests still name none.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Coverage, describeCoverage } from '../../src/documents/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { GREETINGS_BRANCH as BRANCH, changeSetUp, git, type Reply } from '../helpers/change-repo.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

const KW_TEST = /\n\n {0,6}test\("KW-1: [\s\S]*?\n {0,6}\}\);\n/;

/** QA's first tests without the one of what must keep working. */
const withoutKwTest = (replies: Reply[]): Reply[] =>
  replies.map((r) => (r.action === 'write_change_tests' ? { ...r, reply: r.reply!.replace(KW_TEST, '\n') } : r));

/** QA's added tests: a file of the repository's kind, its test titled `title`. */
const keptTest = (title: string): Reply => ({
  role: 'qa',
  action: 'write_change_criterion_tests',
  reply: [
    'test/greet-kept.test.js',
    '```js',
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { greet, shout } from '../src/greet.js';",
    '',
    `test(${JSON.stringify(title)}, () => {`,
    "  assert.equal(greet('Ada'), 'Hello, Ada!');",
    "  assert.throws(() => greet(' '), TypeError);",
    "  assert.equal(shout('hi'), 'HI');",
    '});',
    '```',
    '',
  ].join('\n'),
});

/** QA's answer when asked which untested criteria no automated test can prove: none. */
const noneManual: Reply = { role: 'qa', action: 'declare_change_manual_criteria', json: { checks: [] } };

interface Logged {
  action: string;
  messages: { role: string; content: string }[];
}
const asked = async (worktree: string, action: string) =>
  ((await readAppendLog(path.join(worktree, '.sopworks', 'exchanges.jsonl'))).records as Logged[]).filter((e) => e.action === action);

describe('done means covered, for a change: a criterion of the change request no test names', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('goes back to QA for its test — a KW-n exercising the behaviour kept — and the change ends done once it passes', async () => {
    const run = await changeSetUp((replies) => [...withoutKwTest(replies), noneManual, keptTest("KW-1: greet's English greeting, its TypeError, and shout")]);
    const result = await run.change();
    const said = result.stdout + result.stderr;
    assert.equal(result.code, 0, said);
    assert.match(result.stdout, /^Outcome {3}done — the existing tests and the change's tests pass$/m, said);
    assert.match(result.stdout, /^ {2}Criteria {7}4 of 4 proven \(P0: 4 of 4\)$/m, said);
    const board = (await readAppendLog(path.join(run.worktree, '.sopworks', 'board.jsonl'))).records as { type: string; payload: Coverage }[];
    assert.deepEqual(
      board.filter((m) => m.type === 'Coverage').map((m) => describeCoverage(m.payload)),
      ['3 of 4 criteria proven (P0: 3 of 4; unmet: KW-1 untested)', '4 of 4 criteria proven (P0: 4 of 4)'],
      'the first round left KW-1 untested; the second proves it',
    );

    const [ask] = await asked(run.worktree, 'write_change_criterion_tests');
    assert.ok(ask, 'QA was asked for the test of the untested criterion');
    const prompt = ask.messages.find((m) => m.role === 'user')!.content;
    assert.match(prompt, /\*\*KW-1\*\* \(P0, untested — no test cites it\): greet's English greeting/);
    assert.match(prompt, /the repository's existing tests name no KW id, so write for each KW-n a test named after it/);
    assert.match(prompt, /The change is done only when every criterion, AC-n and KW-n alike, is proven by a passing test that names it/);
    assert.match(prompt, /^### test\/greet-lang\.test\.js$/m, "it sees the change's tests so far");

    // Both test files are on the change's branch, beside the repository's own tests.
    const tree = git(run.worktree, 'ls-tree', '-r', '--name-only', BRANCH, 'test/');
    assert.deepEqual(tree.trim().split('\n').sort(), ['test/greet-kept.test.js', 'test/greet-lang.test.js', 'test/greet.test.js']);
    run.untouched();
  });

  it('ends criteria-unmet (exit 6), naming the criterion, when the tests QA adds still name none', async () => {
    // Two different replies (the same one twice would be a loop), neither naming KW-1.
    const run = await changeSetUp((replies) => [
      ...withoutKwTest(replies),
      noneManual,
      keptTest('greet as before'),
      noneManual,
      keptTest('greet and shout as before'),
    ]);
    const result = await run.change();
    const said = result.stdout + result.stderr;
    assert.equal(result.code, 6, said);
    assert.match(
      result.stdout,
      /^Outcome {3}criteria-unmet — a criterion of the change request is not proven: 3 of 4 criteria proven \(P0: 3 of 4; unmet: KW-1 untested\)$/m,
      said,
    );
    assert.equal((await asked(run.worktree, 'write_change_criterion_tests')).length, 2, 'QA is asked twice at most');
    // What was delivered stays on the branch, for a person to finish.
    const coverage = await fs.readFile(path.join(run.worktree, '.sopworks', 'documents', 'test-reports', 'coverage.md'), 'utf8');
    assert.match(coverage, /\*\*KW-1\*\* \(P0, untested — no test cites it\)/);
    assert.match(git(run.worktree, 'show', `${BRANCH}:src/greet.js`), /Bonjour/);
    run.untouched();
  });

  it('a criterion QA declares manual that the review finds testable comes back to QA for its test, and the change ends done', async () => {
    const declared: Reply = {
      role: 'qa',
      action: 'declare_change_manual_criteria',
      json: {
        checks: [{ id: 'KW-1', reason: 'the greeting is a matter of wording', artifacts: ['src/greet.js'], lookFor: 'the English greeting kept as it was' }],
      },
    };
    const testable: Reply = {
      role: 'product-manager',
      action: 'review_change_manual_criteria',
      json: { verdicts: [{ id: 'KW-1', verdict: 'testable', reason: "a test can call greet('Ada') and compare it with 'Hello, Ada!'" }] },
    };
    const run = await changeSetUp((replies) => [
      ...withoutKwTest(replies),
      declared,
      testable,
      keptTest("KW-1: greet's English greeting, its TypeError, and shout"),
    ]);
    const result = await run.change();
    const said = result.stdout + result.stderr;
    assert.equal(result.code, 0, said);
    assert.match(result.stdout, /^ {2}Criteria {7}4 of 4 proven \(P0: 4 of 4\)$/m, said);
    const [review] = await asked(run.worktree, 'review_change_manual_criteria');
    const shown = review!.messages.find((m) => m.role === 'user')!.content;
    assert.match(shown, /^## KW-1: greet's English greeting/m, 'the Product Manager of the change is shown the criterion');
    assert.match(shown, /^### src\/greet\.js$/m, 'and the file it names, as the change wrote it');
    const [ask] = await asked(run.worktree, 'write_change_criterion_tests');
    assert.match(ask!.messages.find((m) => m.role === 'user')!.content, /- manual: testable \(a test can call greet\('Ada'\)/);
    const coverage = await fs.readFile(path.join(run.worktree, '.sopworks', 'documents', 'test-reports', 'coverage.md'), 'utf8');
    assert.match(
      coverage,
      /\*\*KW-1\*\* \(P0, proven\)[^\n]*\n {2}- passed: `KW-1: greet's English greeting, its TypeError, and shout`\n {2}- manual: testable/,
    );
    run.untouched();
  });
});
