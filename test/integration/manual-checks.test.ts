/**
 * A criterion no automated test can prove (issue 40, Must 3): QA declares it manual, the Product Manager
 * reads the file it names and accepts it (proven), rejects it (a bug report to the Engineer who owns the
 * file, then read again) or finds it testable (back to QA, who writes the test). The real pipeline, offline,
 * with the scripted model: the shipped scenario examples/leapyear-manual.yaml and variants of it. Asserted
 * on what a person sees: the matrix committed after each round and review, the end summary, --json, review.
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
const SCENARIO = path.join(ROOT, 'examples', 'leapyear-manual.yaml');
const MATRIX = 'docs/test-reports/coverage.md';
type Reply = Scenario['replies'][number];

interface Logged {
  action: string;
  messages: { role: string; content: string }[];
}

async function run(scenarioFile: string, ...flags: string[]) {
  const out = await tempDir('sopworks-manual-checks-');
  const result = await sopworks(['run', '--llm', `scripted:${scenarioFile}`, '--out', out, ...flags], { cwd: out });
  const project = path.join(out, 'leapyear-manual');
  return { code: result.code, stdout: result.stdout, said: `${result.stdout}\n${result.stderr}`, project };
}

/** Every version of the committed matrix, oldest first: its first lines (the summary) and its AC-2 entry. */
async function matrices(project: string): Promise<string[]> {
  const commits = (await exec('git', ['log', '--reverse', '--format=%H', '--', MATRIX], { cwd: project })).stdout.trim().split('\n');
  const shown = await Promise.all(commits.map(async (c) => (await exec('git', ['show', `${c}:${MATRIX}`], { cwd: project })).stdout));
  return shown.map((page) => {
    const summary = page.split('\n')[2]!.replace(/\. A criterion is proven.*/, '');
    const ac2 = page
      .slice(page.indexOf('- **AC-2**'))
      .split('\n')
      .filter((l) => l.startsWith('- **AC-2**') || l.startsWith('  - '));
    return [summary, ...ac2].join('\n');
  });
}

const asked = async (project: string, action: string) =>
  ((await readAppendLog(path.join(project, '.sopworks', 'exchanges.jsonl'))).records as Logged[]).filter((e) => e.action === action);
const promptOf = (e: Logged) =>
  e.messages
    .filter((m) => m.role !== 'assistant')
    .map((m) => m.content)
    .join('\n');

/** The shipped scenario with its replies edited: `edit` maps each, null drops it; `extra` are added at the end. */
async function variant(edit: (reply: Reply) => Reply | null, extra: Reply[] = []): Promise<string> {
  const scenario = Scenario.parse(parse(await fs.readFile(SCENARIO, 'utf8')));
  const replies = [...scenario.replies.flatMap((r) => edit(r) ?? []), ...extra];
  const file = path.join(await tempDir('sopworks-manual-scenario-'), 'variant.yaml');
  await fs.writeFile(file, stringify({ ...scenario, replies }));
  return file;
}

const REVIEW = { role: 'product-manager', action: 'review_manual_criteria' };
const verdict = (v: string, reason: string): Reply => ({ ...REVIEW, json: { verdicts: [{ id: 'AC-2', verdict: v, reason }] } }) as Reply;

describe('manual checks: a criterion no automated test can prove, judged by a review of the delivered file', function () {
  this.timeout(240_000);
  after(removeTempDirs);

  it('rejected, sent to the Engineer, read again and accepted: the run ends done (examples/leapyear-manual.yaml)', async () => {
    const { code, stdout, said, project } = await run(SCENARIO);
    assert.equal(code, 0, said);
    assert.match(stdout, /^Outcome {3}done — all tests pass$/m, said);
    assert.match(stdout, /^\s+Criteria\s+2 of 2 proven \(P0: 2 of 2; manual: AC-2 accepted\)$/m, said);
    const AC2 = '- **AC-2** (P0, %s): README.md says how to install the tool, shows an example of its use and says how to run its tests';
    const why =
      '  - no automated test: whether a README explains installing, using and testing the tool is a judgement on prose, not an observable behaviour; read `README.md` for: an install step, an example run of node src/cli.js, and the command that runs the tests';
    assert.deepEqual(await matrices(project), [
      ['1 of 2 criteria proven (P0: 1 of 2; unmet: AC-2 untested)', AC2.replace('%s', 'untested — no test cites it')].join('\n'),
      [
        '1 of 2 criteria proven (P0: 1 of 2; unmet: AC-2 rejected; manual: AC-2 rejected)',
        AC2.replace('%s', 'REJECTED by its manual check'),
        '  - manual: rejected (README.md has Install and Usage sections but never says how to run the tests; add a Tests section with the command (node --test))',
        why,
      ].join('\n'),
      [
        '1 of 2 criteria proven (P0: 1 of 2; unmet: AC-2 untested; manual: AC-2 awaiting)',
        AC2.replace('%s', 'untested — no test cites it'),
        '  - manual: awaiting review',
        why,
      ].join('\n'),
      [
        '2 of 2 criteria proven (P0: 2 of 2; manual: AC-2 accepted)',
        AC2.replace('%s', 'proven'),
        '  - manual: accepted (README.md now has Install (npm install), Usage (node src/cli.js 2000 1900) and Tests (node --test))',
        why,
      ].join('\n'),
    ]);

    // The rejection reached the Engineer as a bug report on README.md, and its fix is what was read again.
    const bug = await fs.readFile(path.join(project, 'docs', 'bug-reports', 'bug-1.md'), 'utf8');
    assert.match(
      bug,
      /- `README\.md`: AC-2 \("README\.md says how to install.*"\): README\.md has Install and Usage sections but never says how to run the tests/,
    );
    const [fix] = await asked(project, 'fix_file');
    assert.match(promptOf(fix!), /No automated test can prove AC-2, so a review read the files instead, and rejected them/);
    const reviews = await asked(project, 'review_manual_criteria');
    assert.equal(reviews.length, 2);
    assert.doesNotMatch(promptOf(reviews[0]!), /## Tests\n/, 'the first review read the README as first written');
    assert.match(promptOf(reviews[1]!), /## Tests\n\n```sh\nnode --test\n```/, 'the second read the fixed README');
    for (const review of reviews) {
      assert.match(promptOf(review), /^## AC-2: README\.md says how to install the tool, shows an example of its use and says how to run its tests$/m);
      assert.match(
        promptOf(review),
        /one verdict for each criterion listed, by its id: accepted when the files show what the criterion says/,
        'the rule its schema keeps',
      );
    }
    // QA was told the rule its declaration is kept to, in the prompt of that reply.
    const [declared] = await asked(project, 'declare_manual_criteria');
    assert.match(
      promptOf(declared!),
      /declare manual only a criterion marked untested in the coverage matrix below that no automated test can prove, never one a review found testable/,
    );
    assert.match(promptOf(declared!), /^- README\.md$/m, 'it sees the files it may name');

    // review and --json say the same.
    const review = await sopworks(['review', project], { cwd: path.dirname(project), env: { NO_COLOR: '1' } });
    assert.match(review.stdout, /^ {2}AC-2 +P0 +proven +manual: accepted \(README\.md now has Install/m, review.stdout);
  });

  it('accepted at the first reading: done, the criterion proven by its manual check, in --json too', async () => {
    const file = await variant((r) =>
      r.action === 'review_manual_criteria'
        ? r.note?.startsWith('the first')
          ? verdict('accepted', 'all three are there')
          : null
        : r.action === 'fix_file' || r.action === 'review_fix'
          ? null
          : r,
    );
    // With a README that says it all from the start.
    const full = Scenario.parse(parse(await fs.readFile(SCENARIO, 'utf8'))).replies.find((r) => r.action === 'fix_file')!.reply!;
    const scenario = Scenario.parse(parse(await fs.readFile(file, 'utf8')));
    const replies = scenario.replies.map((r) => (r.action === 'write_file' && r.key === 'README.md' ? { ...r, reply: full } : r));
    await fs.writeFile(file, stringify({ ...scenario, replies }));

    const { code, stdout, said, project } = await run(file, '--json');
    assert.equal(code, 0, said);
    const end = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; outcome?: string; criteria?: unknown })
      .find((l) => l.type === 'summary');
    assert.equal(end?.outcome, 'done', said);
    assert.deepEqual(end?.criteria, {
      proven: 2,
      total: 2,
      p0Proven: 2,
      p0Total: 2,
      unmet: [],
      manual: [{ id: 'AC-2', verdict: 'accepted', reason: 'all three are there' }],
    });
    assert.equal((await asked(project, 'review_manual_criteria')).length, 1);
    assert.equal((await asked(project, 'fix_file')).length, 0, 'nothing went back to the Engineer');
  });

  it('found testable: back to QA, who writes the test that proves it, and may not declare it manual again', async () => {
    const full = Scenario.parse(parse(await fs.readFile(SCENARIO, 'utf8'))).replies.find((r) => r.action === 'fix_file')!.reply!;
    const readmeTest: Reply = {
      role: 'qa',
      action: 'write_criterion_tests',
      reply: [
        'test/readme.test.js',
        '```js',
        "import { test } from 'node:test';",
        "import assert from 'node:assert/strict';",
        "import fs from 'node:fs';",
        '',
        "test('AC-2: README.md says how to install, use and test it', () => {",
        "  const readme = fs.readFileSync('README.md', 'utf8');",
        "  for (const said of ['npm install', 'node src/cli.js 2000 1900', 'node --test']) assert.ok(readme.includes(said), said);",
        '});',
        '```',
        '',
      ].join('\n'),
    } as Reply;
    const file = await variant(
      (r) => {
        if (r.action === 'write_file' && r.key === 'README.md') return { ...r, reply: full };
        if (r.action === 'review_manual_criteria')
          return r.note?.startsWith('the first') ? verdict('testable', 'a test can read README.md and look for the three commands') : null;
        return r.action === 'fix_file' || r.action === 'review_fix' ? null : r;
      },
      [readmeTest],
    );
    const { code, stdout, said, project } = await run(file);
    assert.equal(code, 0, said);
    assert.match(stdout, /^\s+Criteria\s+2 of 2 proven \(P0: 2 of 2\)$/m, said);
    const last = (await matrices(project)).at(-1)!;
    assert.match(last, /^- \*\*AC-2\*\* \(P0, proven\): README\.md says/m);
    assert.match(last, /^ {2}- passed: `AC-2: README\.md says how to install, use and test it`$/m);
    assert.match(last, /^ {2}- manual: testable \(a test can read README\.md and look for the three commands\)$/m);
    const [write] = await asked(project, 'write_criterion_tests');
    assert.match(promptOf(write!), /- manual: testable \(a test can read README\.md and look for the three commands\)/, 'QA is shown how');
    assert.equal((await asked(project, 'declare_manual_criteria')).length, 1);
  });

  it('rejected again after each fix: the run ends criteria-unmet (exit 6), naming the criterion', async () => {
    const fixes = ['Run them.', 'Run the tests.'];
    const scenario = Scenario.parse(parse(await fs.readFile(SCENARIO, 'utf8')));
    const fix = scenario.replies.find((r) => r.action === 'fix_file')!;
    const reviewFix = scenario.replies.find((r) => r.action === 'review_fix')!;
    const file = await variant(
      (r) => (r.action === 'review_manual_criteria' || r.action === 'fix_file' || r.action === 'review_fix' ? null : r),
      [
        verdict('rejected', 'no command to run the tests'),
        ...fixes.flatMap((tests) => [{ ...fix, reply: fix.reply!.replace('```sh\nnode --test\n```', tests) } as Reply, reviewFix]),
        verdict('rejected', 'still no command'),
        verdict('rejected', 'still no command, again'),
      ],
    );
    const { code, stdout, said, project } = await run(file);
    assert.equal(code, 6, said);
    assert.match(
      stdout,
      /^Outcome {3}criteria-unmet — a P0 acceptance criterion is not proven: 1 of 2 criteria proven \(P0: 1 of 2; unmet: AC-2 rejected; manual: AC-2 rejected\)$/m,
      said,
    );
    assert.equal((await asked(project, 'fix_file')).length, 2, 'two fixes at most');
    assert.equal((await asked(project, 'review_manual_criteria')).length, 3);
  });
});
