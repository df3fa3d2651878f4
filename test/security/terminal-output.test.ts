/**
 * Red team, the terminal: text sopworks did not write — a run's record and history (spec, reasons,
 * board messages, commit subjects, a model's label), a folder's name, a repository's config, a
 * generated program's output, a job read from Redis, a path in an error — carries escape sequences that
 * would set the window title, clear the screen, overwrite a line, forge a line of its own, or reorder
 * text. Every command that prints it runs at a pty (`script`), and the bytes the terminal received are
 * checked: no control but sopworks' own colours and line breaks, no forged line, the attack shown as
 * inert stand-ins. (test/security/change-attack.test.ts does the same for `change`'s progress lines.)
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Queue } from 'bullmq';
import { QUEUE_NAME } from '../../src/apps/queue/index.ts';
import { ROOT } from '../helpers/paths.ts';
import { type PtyResult, runCliInPty, shownLines, terminalControls } from '../helpers/pty.ts';
import { startRedis, type TestRedis } from '../helpers/redis-server.ts';
import { cleanEnv, runCli } from '../helpers/run-cli.ts';
import { REDIS, requireSystem, SCRIPT } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

/** A payload per placement, each a different kind of attack. */
const PAYLOADS = {
  spec: 'a word counter\x1b]0;window title set by a spec\x07',
  reason: 'tests failed\x1b[2J\x1b[Hcleared',
  subject: 'feat: counter\n\x1b[32m✓ All tests passed\x1b[0m',
  model: 'gpt\rOutcome   done',
  bugSummary: 'crash \u009b31m in C1 \u202ereversed',
  folder: 'evil\x1b[5mrun',
  configValue: 'cat\x1b]52;c;cGF5bG9hZA==\x07',
  programOutput: '\x1b]0;owned\x07\x1b[2J\rAll tests passed\n\u009b1;1H',
  jobName: 'job\x1b]0;queue\x07\nforged line',
  errorPath: 'missing\x1b[2J\nerror-free',
};

const inert = (attack: string) =>
  [...attack].map((c) => (c < ' ' && c !== '\n' ? String.fromCharCode(0x2400 + c.charCodeAt(0)) : /[\u0080-\u009f\u202e]/.test(c) ? '\ufffd' : c)).join('');

const env = () => {
  const e = cleanEnv({ COLUMNS: '200' });
  delete e.NO_COLOR;
  return e;
};

function assertClean(result: PtyResult, forged?: RegExp): void {
  assert.deepEqual(
    terminalControls(result.bytes),
    [],
    `only colours and line breaks reached the terminal:\n${JSON.stringify(result.bytes.toString('utf8').slice(0, 2000))}`,
  );
  if (forged) assert.ok(!shownLines(result.bytes).some((line) => forged.test(line)), 'no forged line');
}

/** A run folder as a finished run leaves it, its record and history written by an attacker. */
async function craftedRun(dir: string): Promise<void> {
  await fs.mkdir(path.join(dir, '.sopworks'), { recursive: true });
  await fs.writeFile(path.join(dir, 'README.md'), '# x\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=qa', '-c', 'user.email=qa@x', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', PAYLOADS.subject);
  const at = '2026-01-01T00:00:00.000Z';
  const messages = [
    { id: 'msg-000001', seq: 1, type: 'Requirement', from: 'client', to: 'all', causedBy: [], payload: { spec: PAYLOADS.spec, project: 'x' }, createdAt: at },
    {
      id: 'msg-000002',
      seq: 2,
      type: 'BugReport',
      from: 'qa',
      to: 'engineer',
      causedBy: ['msg-000001'],
      payload: { round: 1, summary: PAYLOADS.bugSummary, failures: [], suspectedFiles: [], steps: [] },
      createdAt: at,
    },
    {
      id: 'msg-000003',
      seq: 3,
      type: 'Outcome',
      from: 'qa',
      to: 'all',
      causedBy: ['msg-000002'],
      payload: { outcome: 'failed', reason: PAYLOADS.reason },
      createdAt: at,
    },
  ];
  await fs.writeFile(path.join(dir, '.sopworks', 'board.jsonl'), messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
  await fs.writeFile(
    path.join(dir, '.sopworks', 'run.json'),
    JSON.stringify({
      spec: PAYLOADS.spec,
      project: 'x',
      llm: { kind: 'openai', model: PAYLOADS.model },
      model: PAYLOADS.model,
      sops: path.join(ROOT, 'sops'),
      roles: path.join(ROOT, 'roles'),
      startedAt: at,
      finishedAt: at,
      outcome: 'failed',
      reason: PAYLOADS.reason,
    }),
  );
  git('config', 'core.pager', PAYLOADS.configValue);
}

describe('red team: nothing from outside reaches the terminal raw', function () {
  this.timeout(120_000);
  let runs: string;
  let run: string;
  let review: PtyResult;
  let status: PtyResult;

  before(async function () {
    requireSystem(this, SCRIPT);
    runs = await tempDir('sopworks-terminal-');
    run = path.join(runs, PAYLOADS.folder);
    await craftedRun(run);
    [review, status] = await Promise.all([runCliInPty(['review', run], { cwd: runs, env: env() }), runCliInPty(['status', runs], { cwd: runs, env: env() })]);
  });
  after(removeTempDirs);

  it('`review`: a spec that sets the window title is shown inert', () => {
    assertClean(review);
    assert.equal(review.code, 0, review.bytes.toString('utf8'));
    assert.ok(review.bytes.toString('utf8').includes(inert(PAYLOADS.spec)));
  });

  it('`review`: an outcome reason that clears the screen is shown inert', () => {
    assertClean(review);
    assert.ok(review.bytes.toString('utf8').includes(inert(PAYLOADS.reason)));
  });

  it('`review`: a commit subject that forges a green line forges none', () => {
    assertClean(review, /^\s*✓ All tests passed/);
    // git's %s joins a subject's lines with a space; the escape stays, shown inert.
    assert.ok(shownLines(review.bytes).some((line) => line.includes('feat: counter ␛[32m✓ All tests passed')));
  });

  it("`review`: a model's label that returns the carriage overwrites nothing", () => {
    assertClean(review, /^Outcome\s+done/);
    assert.ok(review.bytes.toString('utf8').includes('gpt␍Outcome   done'));
  });

  it('`review`: a C1 CSI and a bidirectional override in a bug report are shown as �', () => {
    assertClean(review);
    assert.ok(review.bytes.toString('utf8').includes('crash �31m in C1 �reversed'));
  });

  it('`status`: a folder name with an escape, and a config value the tamper warning quotes', () => {
    assertClean(status);
    const text = status.bytes.toString('utf8');
    assert.ok(text.includes(inert(PAYLOADS.folder)), 'the folder name');
    assert.ok(text.includes(`core.pager = ${inert(PAYLOADS.configValue)}`), 'the OSC 52 clipboard write, inert');
  });

  it('`review --json`: the JSON lines a script reads hold no escape, C1 or bidi in any field', async () => {
    const result = await runCli(['review', run, '--json'], { cwd: runs });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /[\u0080-\u009f\u202e]|\\u001b|\\r/, 'neither raw nor escaped in the JSON text');
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; summary?: string; reason?: string });
    assert.ok(lines.some((l) => l.type === 'timeline' && l.summary?.includes('crash �31m in C1 �reversed')));
    assert.ok(lines.some((l) => l.type === 'summary' && l.reason === inert(PAYLOADS.reason)));
  });

  it('`sandbox exec`: a generated program that sets the title, clears, overwrites and sends C1', async () => {
    const project = path.join(runs, 'project');
    await fs.mkdir(project);
    await fs.writeFile(path.join(project, 'attack.js'), `process.stdout.write(${JSON.stringify(PAYLOADS.programOutput)});\n`);
    const result = await runCliInPty(['sandbox', 'exec', '--dir', project, '--', 'node', 'attack.js'], { cwd: runs, env: env() });
    assertClean(result, /^All tests passed/);
    assert.equal(result.code, 0, result.bytes.toString('utf8'));
    assert.ok(result.bytes.toString('utf8').includes('␛]0;owned␇␛[2J␍All tests passed'));
  });

  it('an error that quotes a path: `review` of a folder whose name clears the screen and breaks the line', async () => {
    const result = await runCliInPty(['review', path.join(runs, PAYLOADS.errorPath)], { cwd: runs, env: env() });
    assert.equal(result.code, 2);
    assertClean(result);
    assert.ok(result.bytes.toString('utf8').includes('missing␛[2J'));
  });

  describe('`jobs`: a job anyone wrote to Redis', () => {
    let redis: TestRedis;
    before(async function () {
      requireSystem(this, REDIS);
      redis = await startRedis();
      const queue = new Queue(QUEUE_NAME, { connection: { host: '127.0.0.1', port: redis.port } });
      await queue.add('x', { name: PAYLOADS.jobName, out: `/tmp/${PAYLOADS.jobName}`, spec: '\u009b2J' } as never, { jobId: 'evil' });
      await queue.add('y', 'not even an object' as never, { jobId: 'junk' });
      await queue.close();
    });
    after(async () => redis?.stop());

    it('at a terminal: its name and folder are shown inert, on their own row, and junk data is named as such', async () => {
      const result = await runCliInPty(['jobs'], { cwd: runs, env: { ...env(), SOPWORKS_REDIS_URL: redis.url } });
      assert.equal(result.code, 0, result.bytes.toString('utf8'));
      assertClean(result, /^forged line/);
      const text = result.bytes.toString('utf8');
      assert.ok(text.includes('job␛]0;queue␇␊forged line'));
      assert.match(text, /junk\s+queued.*\(not a sopworks job\)/);
    });

    it('with --json: no C1 or escape in the human fields (JSON escapes C0, not C1)', async () => {
      const result = await runCli(['jobs', '--json'], { cwd: runs, env: { SOPWORKS_REDIS_URL: redis.url } });
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stdout, /[\x1b\u0080-\u009f]/);
      const parsed = JSON.parse(result.stdout) as { jobs: { id: string; name: string }[] };
      assert.equal(parsed.jobs.find((j) => j.id === 'evil')?.name, 'job␛]0;queue␇␊forged line');
    });
  });
});
