/**
 * Redis restarts and cut lines are ordinary for the queue, on a real Redis with an append-only file:
 * workers ride out a restart (they reconnect with backoff and say so once), a worker whose line to
 * Redis goes silent for longer than the lock has its runs taken over by another and fails nothing; every
 * job completes once, every run ends as an uninterrupted run does. `submit` keeps trying an unreachable
 * Redis for SOPWORKS_REDIS_WAIT_MS and says so, `jobs` says it at once, and a worker started before Redis
 * waits for it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { jobIdFor, QUEUE_NAME } from '../../src/apps/queue/index.ts';
import { BIN, ROOT } from '../helpers/paths.ts';
import {
  facts,
  referenceFacts,
  scenario,
  startWorker,
  stopWorker,
  submit,
  TEST_QUEUE_SECRET,
  type WorkerProcess,
  waitUntil,
} from '../helpers/queue-workers.ts';
import { startRedis, type TestRedis } from '../helpers/redis-server.ts';
import { cleanEnv, runCli } from '../helpers/run-cli.ts';
import { REDIS, requireSystem } from '../helpers/system-requirements.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const SPECS = ['roman', 'caesar', 'vowels', 'fizzbuzz'];

/** The runs a worker is at work on now: the last word of its lines on each is that it started or resumed it. */
function inFlight(lines: string[]): string[] {
  const last = new Map<string, string>();
  for (const line of lines) {
    const [, name, what] = /^\S+ (\S+): (starting|resuming|done|handed back|failed)/.exec(line) ?? [];
    if (name) last.set(name, what!);
  }
  return [...last].filter(([, what]) => what === 'starting' || what === 'resuming').map(([name]) => name);
}

describe('the job queue when Redis restarts or the line to it is cut', function () {
  this.timeout(300_000);
  let redis: TestRedis;
  let proxy: TcpProxy;
  let queue: Queue;
  const workers: WorkerProcess[] = [];

  before(async function () {
    requireSystem(this, REDIS);
    redis = await startRedis({ appendOnly: true });
    proxy = await startTcpProxy({ host: '127.0.0.1', port: redis.port });
    queue = new Queue(QUEUE_NAME, { connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null } });
    queue.on('error', () => {});
    for (const name of SPECS) await referenceFacts(name);
  });
  afterEach(async () => {
    proxy.restore();
    await Promise.all(workers.splice(0).map(stopWorker));
    await queue.obliterate({ force: true });
  });
  after(async () => {
    await queue?.close();
    await proxy?.close();
    await redis?.stop();
    await removeTempDirs();
  });

  it('completes every job once through a Redis restart and a worker cut off for longer than the lock', async () => {
    const out = await tempDir();
    // It takes every run at once, slowly enough to be cut off in the middle of them: a run has seconds of
    // calls left when its lease lapses (1333 ms after the cut), however loaded the machine.
    const cutOff = startWorker(proxy.url('redis'), ['--concurrency', String(SPECS.length)], { env: { SOPWORKS_SCRIPTED_LATENCY_MS: '1500' } });
    workers.push(cutOff);
    await cutOff.waitFor(/^Worker /);
    for (const name of SPECS) assert.equal((await submit(redis.url, name, out)).code, 0);
    await cutOff.waitFor(/: starting /);
    await redis.restart({ signal: 'SIGTERM', downMs: 300 });
    await cutOff.waitFor(/^Lost Redis at redis:\/\/127\.0\.0\.1:\d+: reconnecting with backoff\. Runs under way go on/);
    await cutOff.waitFor(/^Reconnected to Redis at .* after [\d.]+ s\.$/);
    // A run of the worker to be cut off, part-way.
    let held = '';
    await waitUntil(
      'a run of the first worker is under way',
      async () => {
        for (const name of inFlight(cutOff.lines)) {
          if (/● commit/.test(await fs.readFile(path.join(out, 'logs', `${name}.log`), 'utf8').catch(() => ''))) held = name;
        }
        return held !== '';
      },
      120_000,
      () => cutOff.lines.join('\n'),
    );
    proxy.cut('silent');
    const other = startWorker(redis.url, ['--concurrency', String(SPECS.length)]);
    workers.push(other);
    await cutOff.waitFor(new RegExp(`${held}: handed back \\(no renewal of its lease reached Redis for 1333 ms\\)`), 60_000);
    await other.waitFor(new RegExp(`${held}: resuming `), 60_000);
    proxy.restore();

    await waitUntil('every job finished', async () => (await queue.getJobCounts('completed')).completed === SPECS.length, 200_000);
    assert.deepEqual(await queue.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed'), {
      completed: SPECS.length,
      failed: 0,
      waiting: 0,
      active: 0,
      delayed: 0,
    });
    for (const name of SPECS) {
      assert.deepEqual(await facts(path.join(out, name)), await referenceFacts(name), `${name}: as an uninterrupted run`);
      const job = await queue.getJob(jobIdFor({ out, name }));
      assert.equal(job!.attemptsMade, 1, `${name}: completed at its first attempt, none used up by the faults`);
    }
    assert.match(
      (await queue.getJob(jobIdFor({ out, name: held })))!.returnvalue.worker,
      new RegExp(other.lines.find((l) => l.startsWith('Worker '))!.split(' ')[1]!),
    );
    const completions = [...cutOff.lines, ...other.lines].filter((l) => /: done$/.test(l));
    assert.equal(completions.length, SPECS.length, `each run completed once:\n${completions.join('\n')}`);
    // The restart and the cut: each said once, however many reconnection attempts each took.
    assert.equal(cutOff.lines.filter((l) => l.startsWith('Lost Redis at ')).length, 2, cutOff.lines.join('\n'));
    assert.equal(cutOff.lines.filter((l) => l.startsWith('Reconnected to Redis at ')).length, 2, cutOff.lines.join('\n'));
  });

  it('goes on taking jobs after Redis restarts while the worker is fetching its first job, and exits on SIGTERM', async () => {
    // The restart lands on the worker's first fetch: ioredis re-sends it after the reconnection and its
    // promise never settles, and a BullMQ worker waiting on it took no job again (the soak's stall).
    const out = await tempDir();
    const worker = startWorker(redis.url);
    workers.push(worker);
    await worker.waitFor(/^Worker /);
    await redis.restart({ signal: 'SIGTERM', downMs: 300 });
    await worker.waitFor(/^Reconnected to Redis at /);
    // A second reconnection retires the worker on the first one's connection of its own.
    await redis.restart({ signal: 'SIGTERM', downMs: 300 });
    await waitUntil('it reconnected twice', async () => worker.lines.filter((l) => l.startsWith('Reconnected to Redis at ')).length === 2, 30_000);
    assert.equal((await submit(redis.url, 'roman', out)).code, 0);
    await worker.waitFor(/roman: done$/, 120_000);
    assert.deepEqual(await facts(path.join(out, 'roman')), await referenceFacts('roman'));
    assert.deepEqual(await queue.getJobCounts('completed', 'failed'), { completed: 1, failed: 0 });
    // The connection it took jobs on since the reconnection kept the process alive after it said it stopped (the soak's hang).
    worker.child.kill('SIGTERM');
    await worker.waitFor(/^Worker stopped\.$/, 30_000);
    const exit = await Promise.race([worker.exited, sleep(15_000).then(() => 'still running 15 s after "Worker stopped."')]);
    assert.deepEqual(exit, { code: 0, signal: null }, worker.lines.join('\n'));
  });

  it('keeps trying an unreachable Redis: submit for SOPWORKS_REDIS_WAIT_MS, a worker until it can; jobs says so at once', async () => {
    const out = await tempDir();
    proxy.cut('reset');
    const jobs = await runCli(['jobs'], { cwd: out, env: { SOPWORKS_REDIS_URL: proxy.url('redis') } });
    assert.equal(jobs.code, 2);
    assert.match(jobs.stderr, /Cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ \((ECONNRESET|Connection is closed\.)\)\. Nothing was queued or run\./);
    const refused = await submit(proxy.url('redis'), 'roman', out, { SOPWORKS_REDIS_WAIT_MS: '1500' });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^Redis at redis:\/\/127\.0\.0\.1:\d+ cannot be reached \(.+\); trying again for up to 2 s…$/m);
    assert.match(refused.stderr, /Cannot reach Redis at .* \(.+, tried for [12] s\)\. Nothing was queued or run\./);

    const waiting = startWorker(proxy.url('redis'));
    workers.push(waiting);
    await waiting.waitFor(/cannot be reached \(.+\); trying again until it can be \(SIGTERM or Ctrl-C to stop\)…$/);
    const submitting = spawn(process.execPath, [BIN, 'submit', '--llm', `scripted:${scenario('roman')}`, '--out', out], {
      cwd: ROOT,
      env: cleanEnv({ SOPWORKS_REDIS_URL: proxy.url('redis'), SOPWORKS_REDIS_WAIT_MS: '60000', SOPWORKS_QUEUE_SECRET: TEST_QUEUE_SECRET }),
    });
    let [stdout, stderr] = ['', ''];
    submitting.stdout.on('data', (chunk) => (stdout += chunk));
    submitting.stderr.on('data', (chunk) => (stderr += chunk));
    const submitted = new Promise((resolve) => submitting.on('close', resolve));
    await waitUntil('submit says it keeps trying', async () => /cannot be reached \(.+\); trying again for up to 60 s…/.test(stderr), 60_000);
    await sleep(500);
    proxy.restore();
    assert.equal(await submitted, 0, stderr);
    assert.match(stdout, /^Queued job roman-/m);
    await waiting.waitFor(/^Worker /, 30_000);
    await waiting.waitFor(/roman: done$/, 120_000);
    assert.deepEqual(await facts(path.join(out, 'roman')), await referenceFacts('roman'));
  });
});
