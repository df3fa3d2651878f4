/**
 * `--json` on run, resume, change, status and review: stdout is JSON lines and nothing else, each held to
 * the documented schema with no field beyond it; the last line is the summary (or an error) and its exit
 * code is the process's, unchanged from the human output. And the spec from a file or standard input.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { JsonLine, jsonLinesSchemaText } from '../../src/apps/console/index.ts';
import { SopworksError } from '../../src/ground/errors.ts';
import { readSpecInput } from '../../src/session/index.ts';
import { sopworks as inProcess } from '../helpers/in-process.ts';
import { BIN, DEMO, ROOT } from '../helpers/paths.ts';
import { type CliResult, cleanEnv } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

type Result = CliResult;

/**
 * The CLI as a child process, its standard input given: for the runs whose stdout is held to be JSON lines
 * and nothing else (a stray write to the process's stdout shows only there) and for reading `-` from
 * standard input. The calls that only read a run (status, review, resume's refusal) and commander's usage
 * error run in this process (test/helpers/in-process.ts).
 */
function child(args: string[], cwd: string, stdin = ''): Promise<Result> {
  return new Promise((resolve, reject) => {
    const cli = spawn(process.execPath, [BIN, ...args], { cwd, env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    cli.stdout.on('data', (d) => (stdout += d));
    cli.stderr.on('data', (d) => (stderr += d));
    cli.on('error', reject);
    cli.on('close', (code) => resolve({ code, stdout, stderr }));
    cli.stdin.end(stdin);
  });
}

const sopworks = (args: string[], cwd: string): Promise<Result> => inProcess(args, { cwd });

/** Every stdout line parsed and held to the schema; a field the schema does not name fails too. */
function jsonLines(result: Result): JsonLine[] {
  assert.ok(result.stdout.endsWith('\n'), `stdout ends with a whole line:\n${result.stdout.slice(-300)}`);
  return result.stdout
    .trimEnd()
    .split('\n')
    .map((line, i) => {
      let value: unknown;
      assert.doesNotThrow(() => (value = JSON.parse(line)), `line ${i + 1} is not JSON: ${line.slice(0, 200)}\n${result.stderr}`);
      const parsed = JsonLine.safeParse(value);
      assert.ok(parsed.success, `line ${i + 1} does not match the schema: ${line.slice(0, 300)}\n${parsed.error?.message}`);
      assert.deepEqual(Object.keys(value as object).sort(), Object.keys(parsed.data).sort(), `line ${i + 1} has fields beyond the schema`);
      return parsed.data;
    });
}

const last = (lines: JsonLine[]) => lines.at(-1)!;

describe('--json and the spec from a file or standard input', function () {
  this.timeout(180_000);
  let work: string;
  before(async () => {
    work = await tempDir('sopworks-json-');
  });
  after(removeTempDirs);

  it('docs/json-lines.schema.json is the schema the output is held to', async () => {
    assert.equal(await fs.readFile(path.join(ROOT, 'docs', 'json-lines.schema.json'), 'utf8'), jsonLinesSchemaText(), 'run `npm run docs:json-schema`');
  });

  it('run --json --spec-file streams every event, then the summary; status and review --json describe the same run', async () => {
    const specFile = path.join(work, 'spec.txt');
    // A byte-order mark and surrounding blank lines are not part of the spec.
    await fs.writeFile(specFile, '\uFEFF\n  a CLI that counts word frequencies in text files\n\n');
    const run = await child(['run', '--json', '--spec-file', specFile, '--llm', `scripted:${DEMO}`, '--out', 'out'], work);
    assert.equal(run.code, 0, run.stderr);
    const lines = jsonLines(run);
    const types = new Set(lines.map((l) => l.type));
    for (const type of ['start', 'call-start', 'call-end', 'message', 'commit', 'tests-start', 'tests-end'])
      assert.ok(types.has(type as never), `a ${type} line`);
    assert.equal(lines[0]!.type, 'start');
    const summary = last(lines);
    assert.ok(summary.type === 'summary');
    assert.equal(summary.outcome, 'done');
    assert.equal(summary.exitCode, 0);
    // The acceptance criteria the last coverage matrix proves (the demo's tests prove each), the unmet P0 ones named.
    assert.deepEqual([summary.criteria?.proven, summary.criteria?.total, summary.criteria?.p0Total, summary.criteria?.unmet.map((u) => u.id)], [5, 5, 5, []]);
    // The demo's 18 commits: each board message's, and the first ("chore: start the repository"), which is no message's.
    assert.equal(summary.commits, 18);
    assert.equal(lines.filter((l) => l.type === 'commit').length, 17);
    assert.equal(summary.usage!.calls, lines.filter((l) => l.type === 'call-end').length);
    const requirement = lines.find((l) => l.type === 'message' && l.messageType === 'Requirement');
    assert.ok(requirement?.type === 'message');
    assert.equal(requirement.summary, 'a CLI that counts word frequencies in text files');
    // The lines for a person went to stderr.
    assert.match(run.stderr, /Next: cd out\/wordfreq/);

    const project = path.join(work, 'out', 'wordfreq');
    const status = jsonLines(await sopworks(['status', '--json', 'out'], work));
    assert.equal(status.length, 2);
    assert.ok(status[0]!.type === 'run');
    assert.deepEqual([status[0].name, status[0].outcome, status[0].reason, status[0].gate], ['wordfreq', 'done', 'all tests pass', null]);
    assert.deepEqual(status[0].criteria, summary.criteria, 'status tells the criteria the run ended with');
    assert.ok(last(status).type === 'summary');

    const review = await sopworks(['review', '--json', project], work);
    assert.equal(review.code, 0, review.stderr);
    const timeline = jsonLines(review);
    assert.equal(timeline.filter((l) => l.type === 'timeline').length, lines.filter((l) => l.type === 'message').length);
    const reviewed = last(timeline);
    assert.ok(reviewed.type === 'summary');
    assert.equal(reviewed.outcome, 'done');
    assert.deepEqual(reviewed.tests, summary.tests);
    assert.deepEqual(reviewed.criteria, summary.criteria);

    // change --json on what the run made.
    const change = await child(
      ['change', project, '--json', '--llm', `scripted:${path.join(ROOT, 'examples', 'wordfreq-change.yaml')}`, '--out', path.join(work, 'changes')],
      work,
    );
    assert.equal(change.code, 0, change.stderr);
    const changed = jsonLines(change);
    assert.ok(changed[0]!.type === 'start' && changed[0].command === 'change');
    const changeSummary = last(changed);
    assert.ok(changeSummary.type === 'summary' && changeSummary.command === 'change');
    assert.equal(changeSummary.outcome, 'done');
    assert.ok(changeSummary.next.some((n) => /git -C .* diff /.test(n)));
  });

  it('keeps the exit codes: a run stopped by its token limit (3), resumed to done (0), with the spec read from standard input', async () => {
    const stdin = 'a CLI that counts word frequencies in text files\n';
    const stopped = await child(['run', '-', '--json', '--llm', `scripted:${DEMO}`, '--out', 'limits', '--max-tokens', '8000'], work, stdin);
    assert.equal(stopped.code, 3, stopped.stderr);
    const lines = jsonLines(stopped);
    const summary = last(lines);
    assert.ok(summary.type === 'summary');
    assert.deepEqual([summary.outcome, summary.exitCode], ['budget-exhausted', 3]);
    assert.ok(summary.next.includes('sopworks resume limits/wordfreq'));
    const requirement = lines.find((l) => l.type === 'message' && l.messageType === 'Requirement');
    assert.ok(requirement?.type === 'message' && requirement.summary === stdin.trim());

    const status = jsonLines(await sopworks(['status', '--json', 'limits'], work));
    assert.ok(status[0]!.type === 'run' && status[0].outcome === 'budget-exhausted' && /token/i.test(status[0].reason ?? ''), JSON.stringify(status[0]));

    const resumed = await child(['resume', 'limits/wordfreq', '--json', '--max-tokens', '1000000'], work);
    assert.equal(resumed.code, 0, resumed.stderr);
    const end = last(jsonLines(resumed));
    assert.ok(end.type === 'summary' && end.command === 'resume' && end.outcome === 'done' && end.exitCode === 0);
  });

  it('ends with an error line and exit 2 on bad input, before anything is written', async () => {
    const empty = await child(['run', '-', '--json', '--llm', `scripted:${DEMO}`, '--out', 'empty'], work, '  \n');
    assert.equal(empty.code, 2);
    const error = last(jsonLines(empty));
    assert.ok(error.type === 'error');
    assert.deepEqual([error.code, error.exitCode], ['SPEC_INVALID', 2]);
    await assert.rejects(fs.stat(path.join(work, 'empty')));

    const flag = await sopworks(['status', '--json', '--no-such-flag'], work);
    assert.equal(flag.code, 2);
    const usage = last(jsonLines(flag));
    assert.ok(usage.type === 'error' && usage.code === 'USAGE');

    const missing = await sopworks(['resume', path.join(work, 'nothing-here'), '--json'], work);
    assert.equal(missing.code, 2, missing.stderr);
    assert.equal(last(jsonLines(missing)).type, 'error');
  });
});

describe('the spec from a file or standard input (readSpecInput)', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir('sopworks-spec-');
  });
  after(removeTempDirs);
  const stdin = (text: string | Buffer) => () => Promise.resolve(Buffer.isBuffer(text) ? text : Buffer.from(text));
  const refused = (code: string, pattern: RegExp) => (error: unknown) => SopworksError.isInstance(error) && error.code === code && pattern.test(error.message);

  it('takes words, a file, or standard input for -; none given is null', async () => {
    assert.equal(await readSpecInput({ given: 'a todo app' }), 'a todo app');
    const file = path.join(dir, 'spec.md');
    await fs.writeFile(file, 'a todo app\nwith due dates\n');
    assert.equal(await readSpecInput({ given: undefined, file }), 'a todo app\nwith due dates\n');
    assert.equal(await readSpecInput({ given: '-', readStdin: stdin('счётчик слов') }), 'счётчик слов');
    assert.equal(await readSpecInput({ given: undefined }), null);
    // "-" among other words is a word.
    assert.equal(await readSpecInput({ given: 'a - b' }), 'a - b');
    await assert.rejects(readSpecInput({ given: '-' }), refused('USAGE', /standard input/), 'no standard input here to read');
  });

  it('refuses what is not a spec, saying why', async () => {
    const file = path.join(dir, 'x.txt');
    await fs.writeFile(file, 'x');
    await assert.rejects(readSpecInput({ given: 'a', file }), refused('USAGE', /Both/));
    await assert.rejects(readSpecInput({ given: undefined, file: path.join(dir, 'absent.txt') }), refused('SPEC_INVALID', /does not exist/));
    await assert.rejects(readSpecInput({ given: undefined, file: dir }), refused('SPEC_INVALID', /is a folder/));
    const binary = path.join(dir, 'bin');
    await fs.writeFile(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]));
    await assert.rejects(readSpecInput({ given: undefined, file: binary }), refused('SPEC_INVALID', /NUL bytes/));
    await assert.rejects(readSpecInput({ given: '-', readStdin: stdin(Buffer.from([0x61, 0xff, 0xfe])) }), refused('SPEC_INVALID', /not UTF-8/));
    const large = path.join(dir, 'large.txt');
    await fs.writeFile(large, 'a'.repeat(70 * 1024));
    await assert.rejects(readSpecInput({ given: undefined, file: large }), refused('SPEC_INVALID', /bytes: not a spec/));
    await assert.rejects(readSpecInput({ given: '-', readStdin: stdin('b'.repeat(70 * 1024)) }), refused('SPEC_INVALID', /bytes: not a spec/));
  });
});
