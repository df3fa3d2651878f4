/**
 * The whole company on the demo scenario, through the real CLI: real git, real files, real child
 * processes. Asserts on the repository a user gets.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { messageTypes } from '../../src/company/index.ts';
import { type Message, MessageBoard } from '../../src/engine/board/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { demoTree } from '../helpers/demo-tree.ts';
import { DEMO } from '../helpers/paths.ts';
import { type CliResult, runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout;

describe('the company on the demo scenario', function () {
  this.timeout(120_000);
  let out: string;
  let project: string;
  let run: CliResult;

  before(async () => {
    out = await tempDir();
    run = await runCli(['run', '--llm', `scripted:${DEMO}`, '--out', out], { cwd: out });
    project = path.join(out, 'wordfreq');
  });
  after(removeTempDirs);

  it('ends with outcome done and exit code 0', () => {
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /Outcome\s+done — all tests pass/);
  });

  it('commits the artifacts of every role into a new repository', async () => {
    const files = (await git(project, 'ls-files')).trim().split('\n').sort();
    assert.deepEqual(files, [
      '.gitignore',
      'README.md',
      'docs/bug-reports/bug-1.md',
      'docs/design.md',
      'docs/prd.md',
      'docs/tasks.md',
      'docs/test-reports/coverage.md',
      'docs/test-reports/round-1.md',
      'docs/test-reports/round-2.md',
      'package.json',
      'src/cli.js',
      'src/count.js',
      'src/files.js',
      'src/format.js',
      'src/tokenize.js',
      'test/wordfreq.test.js',
    ]);
    const design = await fs.readFile(path.join(project, 'docs/design.md'), 'utf8');
    assert.match(design, /```mermaid\nclassDiagram/);
    assert.match(design, /```mermaid\nsequenceDiagram/);
    // README.md is a file of the design, written by the Engineer (its examples fenced inside the reply's ```` block).
    const readme = await fs.readFile(path.join(project, 'README.md'), 'utf8');
    assert.match(readme, /^# wordfreq\n/);
    assert.match(readme, /## Usage[\s\S]*\$ wordfreq --top 2 notes\.txt\n3 the\n1 cat\n```/);
    assert.match(readme, /## Tests\n\n```sh\nnpm test\n```\n$/);
    // Declared executable in the design: committed with mode 100755, and so on disk.
    assert.match(await git(project, 'ls-files', '-s', 'src/cli.js', 'src/count.js'), /^100755 \w+ 0\tsrc\/cli\.js\n100644 \w+ 0\tsrc\/count\.js\n$/);
    assert.equal((await fs.stat(path.join(project, 'src/cli.js'))).mode & 0o111, 0o111);
  });

  it('authors each commit by its role, in order, with a trailer naming the board message', async () => {
    const log = await git(project, 'log', '--reverse', '--format=%an <%ae>|%s|%(trailers:key=Sopworks-Message,valueonly,separator=)');
    const commits = log
      .trim()
      .split('\n')
      .map((line) => line.split('|'));
    assert.deepEqual(
      commits.map(([author, subject]) => `${author} ${subject}`),
      [
        'sopworks <sopworks@sopworks.local> chore: start the repository',
        'Product Manager <product-manager@sopworks.local> docs: product requirements for wordfreq',
        'Architect <architect@sopworks.local> docs: system design',
        'Architect <architect@sopworks.local> docs: task graph of 7 files',
        'Engineer <engineer@sopworks.local> feat: add package.json',
        'Engineer <engineer@sopworks.local> feat: add src/tokenize.js',
        'Engineer <engineer@sopworks.local> feat: add src/count.js',
        'Engineer <engineer@sopworks.local> feat: add src/files.js',
        'Engineer <engineer@sopworks.local> feat: add src/format.js',
        'Engineer <engineer@sopworks.local> feat: add src/cli.js',
        'Engineer <engineer@sopworks.local> feat: add README.md',
        'QA Engineer <qa@sopworks.local> test: add test/wordfreq.test.js',
        'QA Engineer <qa@sopworks.local> test: round 1 failed (4 passed, 4 failed)',
        'QA Engineer <qa@sopworks.local> test: coverage after round 1, 2 of 5 criteria proven (P0: 2 of 5)',
        'QA Engineer <qa@sopworks.local> docs: bug report for src/tokenize.js',
        'Engineer <engineer@sopworks.local> fix: src/tokenize.js',
        'QA Engineer <qa@sopworks.local> test: round 2 passed (8 passed, 0 failed)',
        'QA Engineer <qa@sopworks.local> test: coverage after round 2, 5 of 5 criteria proven (P0: 5 of 5)',
      ],
    );
    const { records } = await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'));
    const ids = new Set(records.map((m) => (m as { id: string }).id));
    for (const [, subject, trailer] of commits.slice(1)) assert.ok(ids.has(trailer!), `${subject}: trailer ${trailer} is a board message`);
  });

  it('checks the write policy on exactly the paths each artifact commits', async () => {
    // The policy is checked at publish time on `paths`, without rendering; the commit writes `files`.
    const { records } = await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'));
    for (const [name, type] of Object.entries(messageTypes))
      assert.equal(type.paths !== undefined, type.files !== undefined, `${name}: paths exactly when files`);
    const board = MessageBoard.inMemory({ types: messageTypes });
    for (const record of records as Message[]) {
      const type = messageTypes[record.type]!;
      if (type.files && type.paths) {
        const before = board.before(board.list().length + 1);
        assert.deepEqual(
          type.paths(record.payload, before),
          type.files(record.payload, before).map((f) => f.path),
          `${record.type} ${record.id}`,
        );
      }
      await board.post(record);
    }
    assert.ok(board.all('BugReport').length > 0 && board.all('TestReport').length > 1, 'the demo board has numbered artifacts');
  });

  it('keeps the run state out of the deliverable', async () => {
    assert.match(await fs.readFile(path.join(project, '.gitignore'), 'utf8'), /^\.sopworks\/$/m);
    // A Rust project's build folder (trial colstat47b: cargo test left target/ untracked).
    assert.match(await fs.readFile(path.join(project, '.gitignore'), 'utf8'), /^\/target\/$/m);
    assert.equal((await git(project, 'status', '--porcelain')).trim(), '');
    for (const file of ['board.jsonl', 'exchanges.jsonl', 'run.json']) await fs.access(path.join(project, '.sopworks', file));
    const runInfo = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8'));
    assert.equal(runInfo.outcome, 'done');
    assert.equal(runInfo.usage.total.calls, 27);
  });

  it('produces a project whose own tests pass when run by hand', async () => {
    const { stdout } = await exec(process.execPath, ['--test'], { cwd: project });
    assert.match(stdout, /^# pass 8$/m);
    assert.match(stdout, /^# fail 0$/m);
    const cli = await exec(process.execPath, ['src/cli.js', '--top', '1', 'README.md'], { cwd: project });
    assert.match(cli.stdout, /^\d+ \S+\n$/);
  });

  it('routes work over the board: a QA failure becomes a bug report the Engineer fixes', async () => {
    const { records } = await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'));
    const flow = (records as { type: string; from: string; to: string }[]).map((m) => `${m.from}>${m.to}:${m.type}`);
    assert.deepEqual(flow, [
      'client>all:Requirement',
      'product-manager>all:PRD',
      'architect>all:Design',
      'architect>all:TaskGraph',
      ...['package.json', 'tokenize', 'count', 'files', 'format', 'cli', 'README.md'].map(() => 'engineer>all:Code'),
      'engineer>all:CodeComplete',
      'qa>all:Tests',
      'qa>all:TestReport',
      'qa>all:Coverage',
      'qa>engineer:BugReport',
      'engineer>all:Code',
      'engineer>all:CodeComplete',
      'qa>all:TestReport',
      'qa>all:Coverage',
      'qa>all:Outcome',
    ]);
  });

  it('shows progress by role and a summary short enough to keep the outcome on a 24-line screen, its usage in one line', () => {
    assert.match(run.stdout, /^engineer\s+… write_file src\/count\.js$/m);
    assert.match(run.stdout, /^qa\s+■ tests round 1: failed \(4 passed, 4 failed\)$/m);
    assert.match(run.stdout, /^Tests\s+round 2 passed \(8 passed, 0 failed\)$/m);
    assert.match(run.stdout, /^\s+Criteria\s+5 of 5 proven \(P0: 5 of 5\)$/m, 'N of M criteria proven: the demo proves every one');
    assert.match(
      run.stdout,
      /^Usage\s+[\d,]+ tokens, cost unknown, \d+\.\ds — 27 calls, [\d,]+ prompt, [\d,]+ completion$/m,
      'tokens, cost (no price for a scripted model), time, then calls and the split (no cached tokens: a scripted model says nothing of a cache)',
    );
    assert.match(
      run.stdout,
      /^Review\s+sopworks review --usage \S*wordfreq {2}\(usage per role and step; the record: \S*wordfreq\/\.sopworks\/\)$/m,
      'where the tables are, the command first',
    );
    const end = run.stdout.slice(run.stdout.lastIndexOf('\nOutcome')).trim().split('\n');
    assert.ok(end.length <= 11, `the summary and what to do next take ${end.length} lines:\n${end.join('\n')}`);
    assert.doesNotMatch(run.stdout, /role\/action|prompt tokens\s+cached/, "the usage tables are review's");
  });

  it('yields the same tree every time the scenario is replayed', async () => {
    // Another replay of the demo: the one this test process made (in process) for every test that needs its tree.
    assert.equal((await git(project, 'rev-parse', 'HEAD^{tree}')).trim(), await demoTree());
  });
});
