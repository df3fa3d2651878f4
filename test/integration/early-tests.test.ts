/**
 * QA writing tests while the code is still being written (sops/qa-early.yaml, opt-in in company.yaml):
 * each file's tests are asked for as soon as its Code is on the board, with only that file and its part
 * of the design; they are published together once the code is complete, run, and the usual bug-report
 * round follows. The history is the same whatever the concurrency.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Scenario } from '../../src/capabilities/model/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { SOPS } from '../helpers/paths.ts';
import { type CompanyRun, demoScenario, runScenario } from '../helpers/run-company.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout.trim();

const testFile = (file: string, body: string) =>
  `${file}\n\`\`\`js\nimport { test } from 'node:test';\nimport assert from 'node:assert/strict';\n${body}\n\`\`\``;

/** The demo's one test suite, split into a test file per source file. */
const PER_FILE_TESTS: Record<string, string> = {
  'package.json': testFile(
    'test/package.test.js',
    "import { readFile } from 'node:fs/promises';\n\ntest('the package is an ES module with a bin', async () => {\n  const pkg = JSON.parse(await readFile('package.json', 'utf8'));\n  assert.equal(pkg.type, 'module');\n});",
  ),
  'src/tokenize.js': testFile(
    'test/tokenize.test.js',
    "import { tokenize } from '../src/tokenize.js';\n\ntest('AC-2: tokenize lower-cases words and drops punctuation', () => {\n  assert.deepEqual(tokenize('Hello, world! HELLO... world?'), ['hello', 'world', 'hello', 'world']);\n});\n\ntest(\"AC-2: tokenize keeps inner apostrophes and digits\", () => {\n  assert.deepEqual(tokenize(\"Don't stop: 42 times\"), [\"don't\", 'stop', '42', 'times']);\n});",
  ),
  'src/count.js': testFile(
    'test/count.test.js',
    "import { countWords, topWords } from '../src/count.js';\n\ntest('AC-1: countWords counts across texts, case-insensitively', () => {\n  const counts = countWords(['The cat', 'the Cat sat.']);\n  assert.equal(counts.get('the'), 2);\n  assert.equal(counts.get('sat'), 1);\n});\n\ntest('AC-3 AC-4: topWords orders by count, then alphabetically, and honours the limit', () => {\n  const counts = new Map([['b', 2], ['a', 2], ['c', 5]]);\n  assert.deepEqual(topWords(counts, 2), [{ word: 'c', count: 5 }, { word: 'a', count: 2 }]);\n});",
  ),
  'src/files.js': testFile(
    'test/files.test.js',
    "import { readTextFiles } from '../src/files.js';\n\ntest('AC-5: readTextFiles names a file it cannot read', async () => {\n  await assert.rejects(readTextFiles(['/no/such/file.txt']), /cannot read \\/no\\/such\\/file\\.txt: ENOENT/);\n});",
  ),
  'src/format.js': testFile(
    'test/format.test.js',
    "import { formatTable } from '../src/format.js';\n\ntest('formatTable right-aligns the counts', () => {\n  assert.equal(formatTable([{ word: 'the', count: 12 }, { word: 'cat', count: 3 }]), '12 the\\n 3 cat');\n});",
  ),
  'README.md': testFile(
    'test/readme.test.js',
    "import { readFile } from 'node:fs/promises';\n\ntest('the README shows how to install, use and test wordfreq', async () => {\n  const readme = await readFile('README.md', 'utf8');\n  for (const section of ['## Install', '## Usage', '## Tests']) assert.ok(readme.includes(section), section);\n});",
  ),
  'src/cli.js': testFile(
    'test/cli.test.js',
    "import { run } from '../src/cli.js';\n\ntest('AC-5: run reports usage errors with exit code 2', async () => {\n  const errors = [];\n  assert.equal(await run([], { out: () => {}, err: (s) => errors.push(s) }), 2);\n  assert.match(errors.join('\\n'), /no input files/);\n});",
  ),
};

function earlyTestsScenario(demo: Scenario): Scenario {
  const replies = demo.replies.filter((r) => !(r.role === 'qa' && r.action === 'write_tests'));
  const bugReport = replies.findIndex((r) => r.role === 'qa' && r.action === 'write_bug_report');
  const perFile = Object.entries(PER_FILE_TESTS).map(([key, reply]) => ({ role: 'qa', action: 'write_file_tests', key, reply }));
  return { ...demo, replies: [...replies.slice(0, bugReport), ...perFile, ...replies.slice(bugReport)] };
}

/** The shipped SOPs, with QA switched to qa-early.yaml the way sops/qa-early.yaml says. */
async function earlyTestsCompany(): Promise<string> {
  const dir = path.join(await tempDir(), 'sops');
  await fs.cp(SOPS, dir, { recursive: true });
  const company = await fs.readFile(path.join(dir, 'company.yaml'), 'utf8');
  const switched = company.replace(
    /  - id: qa\n    watches: \[CodeComplete, ManualVerdicts\]/,
    '  - id: qa\n    sop: qa-early.yaml\n    watches: [TaskGraph, CodeComplete, ManualVerdicts]',
  );
  assert.notEqual(switched, company, 'company.yaml has the qa entry this test rewrites');
  await fs.writeFile(path.join(dir, 'company.yaml'), switched);
  return dir;
}

interface Logged {
  role: string;
  action: string;
  key: string | null;
  at: string;
  ms: number;
  messages: { role: string; content: string }[];
}
const exchanges = async (run: CompanyRun) => (await readAppendLog(path.join(run.project, '.sopworks', 'exchanges.jsonl'))).records as Logged[];
const boardOf = async (run: CompanyRun) =>
  (await readAppendLog(path.join(run.project, '.sopworks', 'board.jsonl'))).records as {
    type: string;
    from: string;
    payload: { files?: { path: string }[] };
  }[];

describe('QA writing tests while the code is written (qa-early.yaml)', function () {
  this.timeout(180_000);
  let one: CompanyRun;
  let four: CompanyRun;

  before(async () => {
    const sops = await earlyTestsCompany();
    const scenario = earlyTestsScenario(await demoScenario());
    one = await runScenario(scenario, { sops, concurrency: 1, latencyMs: 30 });
    four = await runScenario(scenario, { sops, concurrency: 4, latencyMs: 30 });
  });
  after(removeTempDirs);

  it('ends done after the usual round: the tests fail, the bug is fixed, they pass', async () => {
    for (const run of [one, four]) {
      assert.equal(run.result.outcome, 'done', run.result.reason);
      const reports = (await boardOf(run)).filter((m) => m.type === 'TestReport').map((m) => (m.payload as unknown as { passed: boolean }).passed);
      assert.deepEqual(reports, [false, true]);
    }
  });

  it("asks for a file's tests as soon as the file is written, while other files are still being written", async () => {
    const calls = await exchanges(four);
    const start = (e: Logged) => Date.parse(e.at);
    const end = (e: Logged) => Date.parse(e.at) + e.ms;
    const firstTests = calls.find((e) => e.action === 'write_file_tests')!;
    assert.equal(firstTests.key, 'package.json', 'the first file finished is the first tested');
    const lastEngineering = calls.filter(
      (e) => e.role === 'engineer' && (e.action === 'write_file' || e.action === 'review_file' || e.action === 'revise_file'),
    );
    assert.ok(start(firstTests) < Math.max(...lastEngineering.map(end)), 'tests were being written before the last file was');
    // …and after its own file was reviewed: a file is tested once its Code is out.
    for (const tests of calls.filter((e) => e.action === 'write_file_tests')) {
      const reviews = calls.filter((e) => e.role === 'engineer' && e.action === 'review_file' && e.key === tests.key);
      assert.ok(start(tests) >= Math.min(...reviews.map(end)) - 1, `${tests.key} was tested after it was reviewed`);
    }
  });

  it("gives each file's test call that file and its part of the design, not the others", async () => {
    const calls = (await exchanges(four)).filter((e) => e.action === 'write_file_tests');
    assert.deepEqual(calls.map((e) => e.key).sort(), Object.keys(PER_FILE_TESTS).sort());
    for (const call of calls) {
      const prompt = call.messages.find((m) => m.role === 'user')!.content;
      assert.match(prompt, new RegExp(`### ${call.key!.replace('.', '\\.')}\\n`));
      for (const other of Object.keys(PER_FILE_TESTS).filter((f) => f !== call.key))
        assert.doesNotMatch(prompt, new RegExp(`### ${other.replace('.', '\\.')}\\n`), `${call.key}'s prompt leaves out ${other}`);
    }
  });

  it('publishes every test file once, together, after the code is complete, in task order', async () => {
    const board = await boardOf(four);
    const tests = board.filter((m) => m.type === 'Tests');
    assert.equal(tests.length, 1);
    assert.ok(board.indexOf(tests[0]!) > board.findIndex((m) => m.type === 'CodeComplete'));
    assert.deepEqual(
      tests[0]!.payload.files!.map((f) => f.path),
      [
        'test/package.test.js',
        'test/tokenize.test.js',
        'test/count.test.js',
        'test/files.test.js',
        'test/format.test.js',
        'test/cli.test.js',
        'test/readme.test.js',
      ],
    );
  });

  it('yields the same tree and the same commits whatever the concurrency', async () => {
    for (const args of [
      ['rev-parse', 'HEAD^{tree}'],
      ['log', '--reverse', '--format=%s|%an'],
    ]) {
      assert.equal(await git(four.project, ...args), await git(one.project, ...args));
    }
  });
});
