/**
 * Two machines sharing a run folder and a Redis — the recipe of docs/scaling.md, here as two network
 * namespaces on a bridge, each worker in its own UTS and PID namespace (its own host name, its own pid
 * 1), so a pid from one means nothing to the other. A run's owner is its lease in Redis: when one
 * machine's worker freezes (SIGSTOP) in the middle of a run for longer than its lease, the other takes
 * the run over from the shared folder; when the frozen one wakes while the other is at work on that run,
 * it writes nothing and hands the job back. Every run ends done once, identical to an uninterrupted run.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { jobIdFor, QUEUE_NAME } from '../../src/apps/queue/index.ts';
import { innerPid, type Machines, makeMachines } from '../helpers/machines.ts';
import { facts, referenceFacts, startWorker, stopWorker, submit, type WorkerProcess, waitUntil } from '../helpers/queue-workers.ts';
import { startRedis, type TestRedis } from '../helpers/redis-server.ts';
import { NAMESPACES, REDIS, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const SPECS = ['roman', 'caesar', 'vowels'];

describe('two machines (PID, UTS and network namespaces) sharing a run folder and a Redis', function () {
  this.timeout(300_000);
  let machines: Machines | undefined;
  let redis: TestRedis | undefined;
  let queue: Queue | undefined;
  const workers: WorkerProcess[] = [];

  before(async function () {
    requireSystem(this, REDIS);
    requireSystem(this, NAMESPACES);
    machines = await makeMachines(['machine-a', 'machine-b']);
    // Off loopback, Redis wants a password (its protected mode): the recipe's URL carries it.
    redis = await startRedis({ bind: [machines.hostAddress], password: 'shared-secret' });
    queue = new Queue(QUEUE_NAME, { connection: { host: machines.hostAddress, port: redis.port, password: 'shared-secret' } });
    for (const name of SPECS) await referenceFacts(name, machines.machines[0]!);
  });
  after(async () => {
    await Promise.all(workers.map(stopWorker));
    await queue?.close();
    await redis?.stop();
    await machines?.remove();
    await removeTempDirs();
  });

  it("takes a frozen machine's run over through its lease, and the frozen worker writes nothing when it wakes", async () => {
    const [a, b] = machines!.machines as [Machines['machines'][0], Machines['machines'][0]];
    const out = await tempDir();
    const onA = startWorker(redis!.url, ['--concurrency', '2'], { prefix: a.prefix });
    workers.push(onA);
    await onA.waitFor(/^Worker machine-a:1:\w+ /);
    for (const name of SPECS) assert.equal((await submit(redis!.url, name, out)).code, 0);
    // A run of machine a, part-way (two commits made).
    let frozenRun = '';
    await waitUntil('a run of machine a is under way', async () => {
      for (const line of onA.lines) {
        const name = /^\S+ (\S+): starting /.exec(line)?.[1];
        const log = name ? await fs.readFile(path.join(out, 'logs', `${name}.log`), 'utf8').catch(() => '') : '';
        if (name && (log.match(/● commit/g) ?? []).length >= 2 && !onA.lines.some((l) => l.includes(` ${name}: done`))) frozenRun = name;
      }
      return frozenRun !== '';
    });
    const pid = innerPid(onA.child.pid!);
    assert.ok(pid, 'the host pid of machine a’s worker');
    process.kill(pid, 'SIGSTOP');
    const onB = startWorker(redis!.url, ['--concurrency', '3'], { prefix: b.prefix });
    workers.push(onB);
    await onB.waitFor(/^Worker machine-b:1:\w+ /);
    // Both workers are pid 1 of their machines: the lock file's pid says nothing to machine b.
    await onB.waitFor(new RegExp(`${frozenRun}: resuming `), 120_000);
    await waitUntil('machine b is at work on the run it took over', async () =>
      /Took over the lock of machine-a:1:\w+, whose lease on the run ended\./.test(await fs.readFile(path.join(out, 'logs', `${frozenRun}.log`), 'utf8')),
    );
    process.kill(pid, 'SIGCONT');
    await onA.waitFor(new RegExp(`${frozenRun}: handed back \\((no renewal of its lease reached Redis|its lease was taken by machine-b)`), 60_000);

    await waitUntil('every job finished', async () => (await queue!.getJobCounts('completed')).completed === SPECS.length);
    assert.deepEqual(await queue!.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed'), {
      completed: SPECS.length,
      failed: 0,
      waiting: 0,
      active: 0,
      delayed: 0,
    });
    for (const name of SPECS) {
      const got = await facts(path.join(out, name));
      assert.deepEqual(got, await referenceFacts(name, a), `${name}: the same tree, commits and board as an uninterrupted run on these machines`);
      assert.equal(new Set(got.boardIds).size, got.boardIds.length, `${name}: no board message twice`);
    }
    const job = await queue!.getJob(jobIdFor({ out, name: frozenRun }));
    assert.match(job!.returnvalue.worker, /^machine-b:1:/, 'the frozen run was finished on machine b');
    const completions = [...onA.lines, ...onB.lines].filter((l) => /: done$/.test(l));
    assert.equal(completions.length, SPECS.length, `each run completed once:\n${completions.join('\n')}`);
    assert.deepEqual((await fs.readdir(out)).sort(), [...SPECS, 'logs'].sort(), 'one folder per run');
    // Both stop as asked, handing nothing back: there is nothing left.
    for (const worker of [onA, onB]) {
      process.kill(innerPid(worker.child.pid!)!, 'SIGTERM');
      assert.equal((await Promise.race([worker.exited, sleep(30_000).then(() => ({ code: 'hung' }))])).code, 0, worker.lines.join('\n'));
    }
  });
});
