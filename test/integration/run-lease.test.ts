/**
 * A queued run's lease on a real Redis (run-lease.ts): one holder at a time; kept by renewing; given up
 * by a holder that cannot reach Redis before it can expire there (a silent partition, through a TCP
 * proxy), taken by another only once expired; taken back after a Redis that lost it; and a holder
 * paused past its lease (SIGSTOP) writes nothing when it wakes — asserted on the file it writes.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { type HeldLease, leaseKey, RunLeases } from '../../src/apps/queue/index.ts';
import { ROOT } from '../helpers/paths.ts';
import { startRedis, type TestRedis } from '../helpers/redis-server.ts';
import { REDIS, requireSystem } from '../helpers/system-requirements.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const TTL = 900;
const isHeld = (taken: unknown): taken is HeldLease => typeof taken === 'object' && taken !== null && 'token' in taken;

describe("a queued run's lease in Redis", function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let proxy: TcpProxy;
  const clients: Redis[] = [];
  const connect = (url: string) => {
    const client = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(times * 50, 500) });
    client.on('error', () => {});
    clients.push(client);
    return client;
  };

  before(async function () {
    requireSystem(this, REDIS);
    redis = await startRedis();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: redis.port });
  });
  afterEach(() => proxy?.restore());
  after(async () => {
    for (const client of clients) client.disconnect();
    await proxy?.close();
    await redis?.stop();
    await removeTempDirs();
  });

  it('has one holder at a time: another worker is told who holds it and for how long, and takes it once released', async () => {
    const project = path.join(await tempDir(), 'p');
    const a = await new RunLeases(connect(redis.url), 'worker-a', TTL).take(project);
    assert.ok(isHeld(a));
    const b = new RunLeases(connect(redis.url), 'worker-b', TTL);
    // Several renewals later it is still a's.
    await sleep(TTL * 2);
    const refused = await b.take(project);
    assert.ok(!isHeld(refused));
    assert.equal(refused.heldBy, 'worker-a');
    assert.ok(refused.leftMs > TTL / 3 && refused.leftMs <= TTL, `left ${refused.leftMs} ms`);
    assert.equal(a.check(), null);
    assert.equal(a.lost.aborted, false);
    await a.release();
    const taken = await b.take(project);
    assert.ok(isHeld(taken));
    await taken.release();
    assert.equal(await redis.client.exists(leaseKey(project)), 0, 'released: the key is gone');
  });

  it('is given up by a holder cut off from Redis before it can expire there, and taken by another only once expired', async () => {
    const project = path.join(await tempDir(), 'p');
    const a = await new RunLeases(connect(proxy.url('redis')), 'worker-a', TTL).take(project);
    assert.ok(isHeld(a));
    let lostAt = Number.POSITIVE_INFINITY;
    a.lost.addEventListener('abort', () => (lostAt = performance.now()), { once: true });
    proxy.cut('silent');
    const cutAt = performance.now();
    // Another worker tries from the moment of the cut: it gets the run only after a stopped writing.
    const b = new RunLeases(connect(redis.url), 'worker-b', TTL);
    let taken = await b.take(project);
    while (!isHeld(taken)) {
      await sleep(20);
      taken = await b.take(project);
    }
    const fencedWhenTaken = a.check();
    const takenAt = performance.now();
    assert.notEqual(fencedWhenTaken, null, `a may no longer write once b holds the run (b took it ${Math.round(takenAt - cutAt)} ms after the cut)`);
    // The fence is read from the clock at every write, not from when the event is heard: by a whole TTL
    // after the cut (its last renewal was before it), a may not write, however late its timers run.
    const sinceCut = performance.now() - cutAt;
    if (sinceCut < TTL) await sleep(TTL - sinceCut);
    assert.notEqual(a.check(), null, `a may still write a whole lease time after the cut (its stop was heard ${Math.round(lostAt - cutAt)} ms after it)`);
    assert.match(a.check() ?? '', /no renewal of its lease reached Redis for 600 ms/);
    proxy.restore();
    await sleep(TTL);
    assert.equal(a.check()?.includes('no renewal'), true, 'a stays stopped after the line is back');
    assert.equal(taken.check(), null);
    assert.equal(JSON.parse((await redis.client.get(leaseKey(project)))!).owner, 'worker-b');
    await a.release();
    assert.equal(JSON.parse((await redis.client.get(leaseKey(project)))!).owner, 'worker-b', "a's release leaves b's lease alone");
    await taken.release();
  });

  it('is taken back after Redis lost it, and lost at once to a holder that overwrote it', async () => {
    const project = path.join(await tempDir(), 'p');
    const a = await new RunLeases(connect(redis.url), 'worker-a', TTL).take(project);
    assert.ok(isHeld(a));
    await redis.client.flushall();
    await sleep(TTL);
    assert.equal(a.check(), null, 'still held');
    assert.ok((await redis.client.pttl(leaseKey(project))) > 0, 'written again by the renewal');
    await redis.client.set(leaseKey(project), JSON.stringify({ token: 'x', owner: 'worker-c' }), 'PX', 10_000);
    await new Promise((resolve) => a.lost.addEventListener('abort', resolve, { once: true }));
    assert.equal(a.check(), 'its lease was taken by worker-c');
    await a.release();
    assert.equal(JSON.parse((await redis.client.get(leaseKey(project)))!).owner, 'worker-c');
    await redis.client.del(leaseKey(project));
  });

  it('keeps a holder paused past its lease (SIGSTOP) from writing anything when it wakes', async () => {
    const project = await tempDir();
    const board = path.join(project, 'board.jsonl');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/fixtures/queue/lease-writer.ts'), redis.url, project, String(TTL)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('close', resolve));
    try {
      while (!output.includes('holding') || (await fs.readFile(board, 'utf8').catch(() => '')).split('\n').length < 5) await sleep(50);
      const stoppedAt = Date.now();
      child.kill('SIGSTOP');
      // Another worker takes the expired lease meanwhile.
      const b = new RunLeases(connect(redis.url), 'worker-b', TTL);
      let taken = await b.take(project);
      while (!isHeld(taken)) {
        await sleep(50);
        taken = await b.take(project);
      }
      child.kill('SIGCONT');
      await Promise.race([exited, sleep(15_000)]);
      assert.match(output, /fenced: Not written: .*board\.jsonl \(no renewal of its lease reached Redis/);
      const lines = (await fs.readFile(board, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { at: number });
      const late = lines.filter((l) => l.at > stoppedAt + 50);
      assert.deepEqual(late, [], 'no line was begun after the pause');
      await taken.release();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
