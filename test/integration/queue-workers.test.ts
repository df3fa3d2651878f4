/**
 * The job queue on a real Redis (Debian's redis-server) and real worker processes: runs submitted to
 * several workers all end `done`, each exactly once, with the same trees, commits and boards as runs
 * made by one `sopworks run` — even when a worker is killed with kill -9 in the middle of its runs, or
 * stopped with SIGTERM. Bad input (no Redis, an evicting Redis, a job of another version, a job whose
 * folder is gone, a run that cannot start) gets a clear message and is never retried endlessly.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Queue } from 'bullmq';
import { type JobData, type JobFields, jobIdFor, QUEUE_NAME, signJob } from '../../src/apps/queue/index.ts';
import { SOPWORKS_VERSION } from '../../src/ground/version.ts';
import { sopworks } from '../helpers/in-process.ts';
import { ROLES, SOPS } from '../helpers/paths.ts';
import {
  facts,
  type RunFacts,
  referenceFacts,
  scenario,
  startWorker as startWorkerAt,
  stopWorker,
  submit as submitAt,
  TEST_QUEUE_SECRET,
  type WorkerProcess,
  waitUntil,
} from '../helpers/queue-workers.ts';
import { freePort, startRedis, type TestRedis } from '../helpers/redis-server.ts';
import { REDIS, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const SPECS = ['roman', 'caesar', 'vowels', 'fizzbuzz', 'slugify', 'leapyear'];
/** The secret every submitter and worker of these tests shares. */
const SECRET = TEST_QUEUE_SECRET;
/** A worker whose runs go under `runsRoot`. */
const startWorker = (redis: TestRedis, runsRoot: string, args: string[] = []): WorkerProcess => startWorkerAt(redis.url, ['--runs-root', runsRoot, ...args]);
const submit = (redis: TestRedis, name: string, out: string) => submitAt(redis.url, name, out);

describe('the job queue: BullMQ on a real Redis, several worker processes', function () {
  this.timeout(300_000);
  let redis: TestRedis;
  let queue: Queue;
  const reference = new Map<string, RunFacts>();
  const workers: WorkerProcess[] = [];

  before(async function () {
    requireSystem(this, REDIS);
    redis = await startRedis();
    queue = new Queue(QUEUE_NAME, { connection: { host: '127.0.0.1', port: redis.port } });
    // The single-process reference: each spec run by `sopworks run`.
    for (const name of SPECS) reference.set(name, await referenceFacts(name));
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map(stopWorker));
    await queue?.obliterate({ force: true });
  });
  after(async () => {
    await queue?.close();
    await redis?.stop();
    await removeTempDirs();
  });

  it('runs every submitted run to done exactly once, across three workers, one of them killed with kill -9 mid-run', async () => {
    const out = await tempDir();
    for (const name of SPECS) assert.equal((await submit(redis, name, out)).code, 0);
    const victim = startWorker(redis, out, ['--concurrency', '2']);
    workers.push(victim);
    const others = [startWorker(redis, out, ['--concurrency', '2']), startWorker(redis, out, ['--concurrency', '2'])];
    workers.push(...others);
    // Mid-run: one of the victim's runs has made commits (the PRD, the design), not all of them.
    await waitUntil(
      'a run of the victim is under way',
      async () => {
        const started = victim.lines.map((l) => /^\S+ (\S+): starting /.exec(l)?.[1]).filter((n): n is string => n !== undefined);
        for (const name of started) {
          const log = await fs.readFile(path.join(out, 'logs', `${name}.log`), 'utf8').catch(() => '');
          if ((log.match(/● commit/g) ?? []).length >= 2) return true;
        }
        return false;
      },
      60_000,
    );
    const victimPid = victim.child.pid!;
    victim.child.kill('SIGKILL');
    assert.equal((await victim.exited).signal, 'SIGKILL');
    const cutOff = victim.lines
      .filter((l) => /: starting /.test(l))
      .map((l) => /^\S+ (\S+):/.exec(l)![1]!)
      .filter((name) => !victim.lines.some((l) => l.includes(` ${name}: done`)));
    assert.ok(cutOff.length > 0, `the kill cut off a run:\n${victim.lines.join('\n')}`);

    await waitUntil('every job finished', async () => (await queue.getJobCounts('completed')).completed === SPECS.length);
    const counts = await queue.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed');
    assert.deepEqual(counts, { completed: SPECS.length, failed: 0, waiting: 0, active: 0, delayed: 0 });
    for (const name of SPECS) {
      const project = path.join(out, name);
      const record = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8')) as { outcome: string; resumedAt: string[] };
      assert.equal(record.outcome, 'done', name);
      const got = await facts(project);
      assert.deepEqual(got, reference.get(name), `${name}: the same tree, commits and board as a single-process run`);
      assert.equal(new Set(got.boardIds).size, got.boardIds.length, `${name}: no board message twice`);
      const job = await queue.getJob(jobIdFor({ out, name }));
      assert.ok(job?.returnvalue, name);
      if (cutOff.includes(name)) assert.doesNotMatch(job.returnvalue.worker, new RegExp(`:${victimPid}:`), `${name} finished on another worker`);
    }
    const resumed = [];
    for (const name of cutOff) {
      const record = JSON.parse(await fs.readFile(path.join(out, name, '.sopworks', 'run.json'), 'utf8')) as { resumedAt: string[] };
      if (record.resumedAt.length > 0) resumed.push(name);
    }
    assert.ok(resumed.length >= 1, `a run the kill cut off was resumed by another worker (cut off: ${cutOff.join(', ')})`);
    const finishedLines = others.flatMap((w) => w.lines).filter((l) => / done$/.test(l));
    assert.equal(new Set(finishedLines).size, finishedLines.length, 'no run finished twice');
  });

  it("SIGTERM hands a worker's runs back to the queue, interrupted; another worker finishes them", async () => {
    const out = await tempDir();
    assert.equal((await submit(redis, 'roman', out)).code, 0);
    const first = startWorker(redis, out);
    workers.push(first);
    await first.waitFor(/roman: starting/);
    first.child.kill('SIGTERM');
    assert.equal((await first.exited).code, 0, first.lines.join('\n'));
    assert.ok(
      first.lines.some((l) => /roman: handed back/.test(l)),
      first.lines.join('\n'),
    );
    const record = JSON.parse(await fs.readFile(path.join(out, 'roman', '.sopworks', 'run.json'), 'utf8')) as { outcome: string };
    assert.equal(record.outcome, 'interrupted');
    assert.equal(await (await queue.getJob(jobIdFor({ out, name: 'roman' })))!.getState(), 'waiting');

    const second = startWorker(redis, out);
    workers.push(second);
    await second.waitFor(/roman: resuming/);
    await second.waitFor(/roman: done/);
    assert.deepEqual(await facts(path.join(out, 'roman')), reference.get('roman'));
  });

  it('eval --queue runs a suite through the workers', async () => {
    const cwd = await tempDir();
    const suite = path.join(cwd, 'two.yaml');
    await fs.writeFile(
      suite,
      `name: two\nspecs:\n  - name: vowels\n    scenario: ${scenario('vowels')}\n    entry: [node, src/cli.js, abc]\n  - name: roman\n    scenario: ${scenario('roman')}\n`,
    );
    const out = path.join(cwd, 'out');
    workers.push(startWorker(redis, out, ['--concurrency', '2']));
    const result = await sopworks(['eval', suite, '--queue', '--out', out], { cwd, env: { SOPWORKS_REDIS_URL: redis.url, SOPWORKS_QUEUE_SECRET: SECRET } });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const results = JSON.parse(await fs.readFile(path.join(out, 'eval.json'), 'utf8')) as {
      specs: { name: string; outcome: string; entryRuns: boolean | null }[];
    };
    assert.deepEqual(
      results.specs.map((s) => [s.name, s.outcome, s.entryRuns]),
      [
        ['vowels', 'done', true],
        ['roman', 'done', null],
      ],
    );
    assert.deepEqual(await facts(path.join(out, 'roman')), reference.get('roman'));
  });

  it('fails a job a retry cannot fix once, never resumes a run its job paused, and leaves a job of another version on the queue untouched', async () => {
    const out = await tempDir();
    const data = (name: string, extra: Partial<JobFields> = {}): JobData => {
      const fields: JobFields = {
        version: SOPWORKS_VERSION,
        name,
        spec: 'x',
        scenario: scenario('roman'),
        out,
        llm: null,
        model: null,
        sops: SOPS,
        roles: ROLES,
        allowUnsandboxed: false,
        submittedAt: new Date().toISOString(),
        ...extra,
      };
      return { ...fields, signature: signJob(name, fields, SECRET) };
    };
    // A scenario gone from the shared storage, and a run folder another worker made that is gone.
    await queue.add('broken', data('broken', { scenario: path.join(out, 'no-such-scenario.yaml') }), { jobId: 'broken', attempts: 3 });
    const lost = await queue.add('lost', data('lost'), { jobId: 'lost', attempts: 3 });
    await lost.updateProgress({ folderMade: true, worker: 'elsewhere:1' });
    const worker = startWorker(redis, out);
    workers.push(worker);
    await waitUntil('both jobs failed', async () => (await queue.getJobCounts('failed')).failed === 2, 60_000);
    const broken = (await queue.getJob('broken'))!;
    assert.equal(broken.attemptsMade, 1, 'not retried');
    assert.match(broken.failedReason, /refused: its scenario .*no-such-scenario\.yaml does not exist on this worker/);
    const gone = (await queue.getJob('lost'))!;
    assert.equal(gone.attemptsMade, 1);
    assert.match(gone.failedReason, /the run folder .*lost is missing .* although elsewhere:1 made it: workers must share the storage/);
    const listed = await sopworks(['jobs'], { cwd: out, env: { SOPWORKS_REDIS_URL: redis.url, SOPWORKS_QUEUE_SECRET: SECRET } });
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, /0 queued, 0 running, 0 finished, 2 failed/);
    assert.match(listed.stdout, /^broken\s+failed\s+1\s/m);

    // A job handed out again after its run paused where --until asked (its lease lost as it paused, say) is
    // not resumed past its point: it completes, the run as it was.
    const held = path.join(out, 'until-prd', '.sopworks');
    const run = await sopworks(['run', '--llm', `scripted:${scenario('roman')}`, '--until', 'prd', '--name', 'until-prd', '--out', out], { cwd: out });
    assert.equal(JSON.parse(await fs.readFile(path.join(held, 'run.json'), 'utf8')).outcome, 'paused', run.stdout);
    const board = await fs.readFile(path.join(held, 'board.jsonl'), 'utf8');
    // Held while it is made as a job taken up before would be (with its progress), so the worker takes it only then.
    await queue.pause();
    const again = await queue.add('until-prd', data('until-prd', { flags: { until: 'prd' } }), { jobId: 'until-prd' });
    await again.updateProgress({ folderMade: true, worker: 'elsewhere:1', board: board.trim().split('\n').length, idleTakeUps: 0 });
    await queue.resume();
    await waitUntil('the job handed out again has ended', async () => ['completed', 'failed'].includes(await again.getState()), 60_000);
    const ended = (await queue.getJob('until-prd'))!;
    assert.equal(await ended.getState(), 'completed', ended.failedReason);
    assert.equal(ended.returnvalue.outcome, 'paused');
    assert.equal(JSON.parse(await fs.readFile(path.join(held, 'run.json'), 'utf8')).outcome, 'paused', 'still paused at its point');
    assert.equal(await fs.readFile(path.join(held, 'board.jsonl'), 'utf8'), board, 'nothing more was done');

    await queue.add('future', data('future', { version: '99.0.0' }), { jobId: 'future' });
    const { code } = await worker.exited;
    assert.equal(code, 2, worker.lines.join('\n'));
    assert.ok(
      worker.lines.some((l) => /job future was submitted with sopworks 99\.0\.0; this worker runs another version\. The job was handed back/.test(l)),
      worker.lines.join('\n'),
    );
    const future = (await queue.getJob('future'))!;
    assert.equal(await future.getState(), 'waiting');
    assert.equal(future.attemptsMade, 0);
    await assert.rejects(fs.stat(path.join(out, 'future')), 'nothing was made for it');
  });

  it('refuses an unreachable Redis, a malformed URL and a Redis that evicts keys, before anything is queued', async () => {
    const out = await tempDir();
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    const unreachable = await sopworks(['submit', '--llm', `scripted:${scenario('roman')}`, '--out', out], {
      cwd: out,
      // Not waited for here (queue-faults.test.ts waits for a Redis that comes back).
      env: { SOPWORKS_REDIS_URL: nobody, SOPWORKS_QUEUE_SECRET: SECRET, SOPWORKS_REDIS_WAIT_MS: '0' },
    });
    assert.equal(unreachable.code, 2);
    assert.match(unreachable.stderr, /Cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)\. Nothing was queued or run\./);
    const malformed = await sopworks(['jobs'], { cwd: out, env: { SOPWORKS_REDIS_URL: 'http://localhost:6379' } });
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /SOPWORKS_REDIS_URL="http:\/\/localhost:6379" must be a redis:\/\/ or rediss:\/\/ URL/);
    await redis.client.config('SET', 'maxmemory-policy', 'allkeys-lru');
    try {
      const evicting = await sopworks(['worker'], { cwd: out, env: { SOPWORKS_REDIS_URL: redis.url, SOPWORKS_QUEUE_SECRET: SECRET } });
      assert.equal(evicting.code, 2);
      assert.match(evicting.stderr, /evicts keys \(maxmemory-policy allkeys-lru\).*\n.*maxmemory-policy noeviction/);
    } finally {
      await redis.client.config('SET', 'maxmemory-policy', 'noeviction');
    }
    assert.deepEqual(await fs.readdir(out), [], 'nothing was made');
  });

  it('refuses to queue a run that fails the checks `run` makes: a bad name, SOPs that do not load, a finished project', async () => {
    const out = await tempDir();
    const env = { SOPWORKS_REDIS_URL: redis.url, SOPWORKS_QUEUE_SECRET: SECRET };
    const badName = await sopworks(['submit', '--llm', `scripted:${scenario('roman')}`, '--name', 'Not A Name', '--out', out], { cwd: out, env });
    assert.equal(badName.code, 2);
    assert.match(badName.stderr, /Invalid project name "Not A Name"/);
    const badSops = await sopworks(['submit', '--llm', `scripted:${scenario('roman')}`, '--sops', path.join(out, 'no-sops'), '--out', out], { cwd: out, env });
    assert.equal(badSops.code, 2, badSops.stderr);
    await fs.mkdir(path.join(out, 'roman', '.sopworks'), { recursive: true });
    await fs.writeFile(
      path.join(out, 'roman', '.sopworks', 'run.json'),
      JSON.stringify({
        spec: 's',
        project: 'roman',
        llm: { kind: 'scripted', file: 'f' },
        model: 'm',
        sops: SOPS,
        roles: ROLES,
        startedAt: 'x',
        outcome: 'done',
      }),
    );
    const finished = await sopworks(['submit', '--llm', `scripted:${scenario('roman')}`, '--out', out], { cwd: out, env });
    assert.equal(finished.code, 2);
    assert.match(finished.stderr, /roman already exists \(outcome done\); nothing was queued/);
    assert.deepEqual(await queue.getJobCounts('waiting', 'active', 'completed', 'failed'), { waiting: 0, active: 0, completed: 0, failed: 0 });
  });
});
