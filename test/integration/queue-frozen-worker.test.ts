/**
 * A worker frozen (SIGSTOP) while the code it started is still at work: its run's tests (a sandboxed
 * command, which SIGSTOP does not stop) and its `git fast-import`. Another worker takes the run over
 * through its lease and runs the same tests; the frozen one wakes in the middle of them. It must write
 * nothing into the run folder it no longer owns — not the sandbox's copy-back or its putting back of
 * `.git/` and `.sopworks/` as it saw them before its tests (which would remove the newer owner's packs
 * and index and cut its board back), not git's end of stream (which moves the branch and rewrites the
 * index) — and must leave nothing running. Asserted on the host: the repository fsck-clean with the
 * tree, commits and board of an uninterrupted run, the run ending done once, no process left in it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { parse, stringify } from 'yaml';
import { jobIdFor, QUEUE_NAME } from '../../src/apps/queue/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { ROOT } from '../helpers/paths.ts';
import { facts, scenario, startWorker, stopWorker, TEST_QUEUE_SECRET, type WorkerProcess, waitUntil } from '../helpers/queue-workers.ts';
import { startRedis, type TestRedis } from '../helpers/redis-server.ts';
import { REDIS, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
/** How long the scenario's tests take: the frozen worker's are still running when the other takes over. */
const TESTS_MS = 6000;

/** roman's scenario with one test that takes TESTS_MS, written outside the runs root (a company root). */
async function slowScenario(dir: string): Promise<string> {
  const script = parse(await fs.readFile(scenario('roman'), 'utf8')) as { replies: { role: string; action: string; reply?: string }[] };
  const tests = script.replies.find((reply) => reply.role === 'qa' && reply.action === 'write_tests')!;
  const slowed = tests.reply!.replace(
    "test('toRoman rejects zero', () => {",
    `test('toRoman rejects zero', async () => {\n  await new Promise((resolve) => setTimeout(resolve, ${TESTS_MS}));`,
  );
  assert.notEqual(slowed, tests.reply, "roman's tests have the test this suite slows down");
  tests.reply = slowed;
  const file = path.join(dir, 'roman-slow-tests.yaml');
  await fs.writeFile(file, stringify(script));
  return file;
}

/** Processes whose working folder lies in `folder` (a git, a test run), by their command lines. */
async function processesIn(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await fs.readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const cwd = await fs.readlink(`/proc/${pid}/cwd`).catch(() => '');
    if (cwd !== folder && !cwd.startsWith(folder + path.sep)) continue;
    const command = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').join(' ').trim();
    found.push(`${pid}: ${command}`);
  }
  return found;
}

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;
/** A tests round started: its line naming the command (without bubblewrap, a line saying so follows it, also under ▶). */
const ROUND_1 = /▶ tests round 1: (?!WEAKER SANDBOX)/g;

describe('a worker frozen while its tests and its git run, whose run another worker takes over', function () {
  this.timeout(300_000);
  let redis: TestRedis | undefined;
  let queue: Queue | undefined;
  let companyDir = '';
  const workers: WorkerProcess[] = [];

  before(async function () {
    requireSystem(this, REDIS);
    redis = await startRedis();
    queue = new Queue(QUEUE_NAME, { connection: { host: '127.0.0.1', port: redis.port } });
    // Not under the tests' temp folder: that is the workers' runs root, and a scenario may not lie there.
    companyDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-frozen-company-'));
  });
  after(async () => {
    await Promise.all(workers.map(stopWorker));
    await queue?.close();
    await redis?.stop();
    if (companyDir) await fs.rm(companyDir, { recursive: true, force: true });
    await removeTempDirs();
  });

  it('writes nothing into the run when it wakes, kills what it started, and the run ends done once as if uninterrupted', async () => {
    const file = await slowScenario(companyDir);
    const referenceOut = await tempDir();
    const reference = await sopworks(['run', '--llm', `scripted:${file}`, '--out', referenceOut], { cwd: referenceOut });
    assert.equal(reference.code, 0, reference.stdout + reference.stderr);
    const expected = await facts(path.join(referenceOut, 'roman'));

    const out = await tempDir();
    const project = path.join(out, 'roman');
    const log = () => fs.readFile(path.join(out, 'logs', 'roman.log'), 'utf8').catch(() => '');
    const companyRoots = ['--company-root', ROOT, '--company-root', companyDir];
    const a = startWorker(redis!.url, ['--concurrency', '1', ...companyRoots]);
    workers.push(a);
    await a.waitFor(/^Worker \S+ /);
    const submitted = await sopworks(['submit', '--llm', `scripted:${file}`, '--out', out], {
      cwd: ROOT,
      env: { SOPWORKS_REDIS_URL: redis!.url, SOPWORKS_QUEUE_SECRET: TEST_QUEUE_SECRET },
    });
    assert.equal(submitted.code, 0, submitted.stdout + submitted.stderr);
    const lines = () => `A:\n${a.lines.join('\n')}\nB:\n${workers[1]?.lines.join('\n') ?? ''}`;

    // Frozen while its tests run: they go on without it, and so does its git fast-import.
    await waitUntil('the first worker runs the tests', async () => count(await log(), ROUND_1) === 1, 120_000, lines);
    a.child.kill('SIGSTOP');
    const b = startWorker(redis!.url, ['--concurrency', '1', ...companyRoots]);
    workers.push(b);
    await b.waitFor(/roman: resuming /, 120_000);
    // The other worker took the run over and is running the same tests when the frozen one wakes.
    await waitUntil('the second worker runs the tests', async () => count(await log(), ROUND_1) === 2, 120_000, lines);
    assert.match(await log(), /Took over the lock of \S+, whose lease on the run ended\./);
    a.child.kill('SIGCONT');
    await a.waitFor(/roman: handed back \((no renewal of its lease reached Redis|its lease was taken by)/, 60_000);

    const job = await queue!.getJob(jobIdFor({ out, name: 'roman' }));
    await waitUntil('the run finished', async () => (await job!.getState()) !== 'active' && (await job!.getState()) !== 'waiting', 120_000, lines);
    assert.equal(await job!.getState(), 'completed', `${job!.failedReason ?? ''}\n${lines()}`);
    const finished = (await queue!.getJob(job!.id!))!;
    assert.equal(finished.returnvalue.outcome, 'done');
    assert.equal(finished.returnvalue.worker, b.lines.find((l) => l.startsWith('Worker '))!.split(' ')[1], 'finished by the worker that took it over');
    assert.deepEqual([...a.lines, ...b.lines].filter((l) => /: done$/.test(l)).length, 1, 'the run completed once');

    // The host's state: a sound repository holding what an uninterrupted run makes, the board not rewritten.
    const fsck = await exec('git', ['fsck', '--full', '--strict', '--no-progress'], { cwd: project });
    assert.equal(fsck.stderr.trim(), '', 'git fsck finds nothing wrong');
    assert.deepEqual(await facts(project), expected, 'the same tree, commits and board as an uninterrupted run');
    assert.equal((await exec('git', ['status', '--porcelain'], { cwd: project })).stdout, '', 'the index and the work tree agree with the branch');
    // Nothing of the frozen worker's run left running: no git, no test process in the run's folder.
    await waitUntil(
      'nothing runs in the run folder',
      async () => (await processesIn(await fs.realpath(out))).length === 0,
      10_000,
      () => 'still running',
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}:\n${(await processesIn(await fs.realpath(out))).join('\n')}`);
    });
    for (const worker of [a, b]) {
      worker.child.kill('SIGTERM');
      assert.equal((await worker.exited).code, 0, worker.lines.join('\n'));
    }
  });
});
