/**
 * The run lock (engine/run/run-lock.ts): a pid means something only where it was written. A lock of a
 * dead process here is taken over; a lock of another machine or PID namespace is never taken over by a
 * process started by hand — even when its pid happens to be alive here, or to be this process's own; the
 * holder of a run's lease takes over a lock written under an earlier lease once that holder has let go,
 * or after the grace. And writes under a lost lease are refused before they touch the file.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { FileRunStore } from '../../../../src/engine/run/file-run-store.ts';
import { acquireRunLock, lockOwner } from '../../../../src/engine/run/run-lock.ts';
import type { RunLease } from '../../../../src/engine/run/run-store.ts';
import { AppendLog, fenceWrites } from '../../../../src/ground/files/index.ts';
import { pidScope } from '../../../../src/ground/pid-scope.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const ELSEWHERE = 'other-host/pid:[4026531836]';

async function stateDir(): Promise<string> {
  const dir = path.join(await tempDir(), 'project', '.sopworks');
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

const writeLock = (dir: string, lock: object | string) => fs.writeFile(path.join(dir, 'lock'), typeof lock === 'string' ? lock : JSON.stringify(lock));
const readLock = async (dir: string) => JSON.parse(await fs.readFile(path.join(dir, 'lock'), 'utf8')) as { pid: number; scope: string; lease: string | null };

function lease(overrides: Partial<RunLease> = {}): RunLease & { stop: AbortController } {
  const stop = new AbortController();
  return { owner: 'host:1:ab12', token: 'token-new', graceMs: 400, lost: stop.signal, check: () => null, stop, ...overrides };
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('the run lock', () => {
  after(removeTempDirs);

  it('takes over the lock of a dead process here, in the bare-pid form written before leases too', async () => {
    const dir = await stateDir();
    const pid = await deadPid();
    await writeLock(dir, `${pid}\n`);
    assert.equal(await lockOwner(dir), null);
    const lock = await acquireRunLock(dir);
    assert.equal(lock.tookOver, `process ${pid}, which is no longer running`);
    assert.deepEqual(await readLock(dir), { pid: process.pid, scope: pidScope(), lease: null, owner: `process ${process.pid}` });
    assert.equal(lock.lost.aborted, false);
    await lock.release();
    await assert.rejects(fs.stat(path.join(dir, 'lock')), 'released');
  });

  it('is busy while a process here holds it', async () => {
    const dir = await stateDir();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      await writeLock(dir, { pid: child.pid, scope: pidScope(), lease: null, owner: `process ${child.pid}` });
      assert.equal(await lockOwner(dir), child.pid);
      await assert.rejects(acquireRunLock(dir), new RegExp(`in use by another sopworks process \\(pid ${child.pid}\\)`));
    } finally {
      child.kill('SIGKILL');
    }
  });

  it("never takes over another machine's lock by hand — not even when its pid is alive here, or is this process's own", async () => {
    for (const pid of [1, process.pid, await deadPid()]) {
      const dir = await stateDir();
      await writeLock(dir, { pid, scope: ELSEWHERE, lease: null, owner: `process ${pid}` });
      assert.equal(await lockOwner(dir), pid, 'counted as at work: it cannot be checked from here');
      await assert.rejects(acquireRunLock(dir), (error: Error & { code: string; hint: string }) => {
        assert.equal(error.code, 'PROJECT_BUSY');
        assert.match(error.message, new RegExp(`in use by process ${pid} on other-host/pid:\\[4026531836\\], which cannot be checked from here`));
        assert.match(error.hint, /If that process is gone, delete .*\.sopworks\/lock/);
        return true;
      });
      assert.equal((await readLock(dir)).scope, ELSEWHERE, 'left as it was');
    }
  });

  it("under a lease, takes over an earlier lease's lock once its holder let go, or after the grace", async () => {
    const released = await stateDir();
    await writeLock(released, { pid: 1, scope: ELSEWHERE, lease: 'token-old', owner: 'host-b:1:cd34' });
    const held = lease({ graceMs: 5000 });
    setTimeout(() => void fs.rm(path.join(released, 'lock')), 300);
    const started = Date.now();
    const lock = await acquireRunLock(released, held);
    assert.ok(Date.now() - started >= 250 && Date.now() - started < 4000, `waited ${Date.now() - started} ms`);
    assert.equal(lock.tookOver, null, 'the earlier holder released it');
    assert.equal((await readLock(released)).lease, 'token-new');
    held.stop.abort('its lease was taken by host-c:1:ef56');
    assert.equal(lock.lost.aborted, true, "the lease's loss reaches the run");
    await lock.release();

    const abandoned = await stateDir();
    await writeLock(abandoned, { pid: 1, scope: ELSEWHERE, lease: 'token-old', owner: 'host-b:1:cd34' });
    const since = Date.now();
    const taken = await acquireRunLock(abandoned, lease());
    assert.ok(Date.now() - since >= 350, 'the grace was waited out');
    assert.equal(taken.tookOver, 'host-b:1:cd34, whose lease on the run ended');
    await taken.release();
  });

  it("under a lease, is busy with a lock another machine's process took by hand", async () => {
    const dir = await stateDir();
    await writeLock(dir, { pid: 7, scope: ELSEWHERE, lease: null, owner: 'process 7' });
    await assert.rejects(acquireRunLock(dir, lease()), /in use by process 7 on other-host/);
  });

  it('refuses every write of a run whose lease says stop, before the write touches the file', async () => {
    const dir = await stateDir();
    let reason: string | null = null;
    const unregister = fenceWrites(path.dirname(dir), lease({ check: () => reason }).check);
    const board = path.join(dir, 'board.jsonl');
    const log = await AppendLog.open(board, { flush: 'each' });
    await log.append({ n: 1 });
    reason = 'no renewal of its lease reached Redis for 20000 ms';
    await assert.rejects(log.append({ n: 2 }), (error: Error & { code: string }) => {
      assert.equal(error.code, 'WRITE_FENCED');
      assert.match(error.message, /Not written: .*board\.jsonl \(no renewal of its lease reached Redis for 20000 ms\)/);
      return true;
    });
    const store = FileRunStore.of(path.dirname(dir));
    await assert.rejects(store.writeRecord({ outcome: 'done' }), /Not written: .*run\.json/);
    await assert.rejects(store.roles.save('engineer', { state: 'writing', status: 'active', restorable: null }), /Not written: .*engineer\.json/);
    await log.close();
    assert.equal(await fs.readFile(board, 'utf8'), '{"n":1}\n');
    await assert.rejects(fs.stat(path.join(dir, 'run.json')));
    await assert.rejects(fs.stat(path.join(dir, 'roles', 'engineer.json')));
    unregister();
    // Outside the lease, or once it is given back, writes go on.
    const after = await AppendLog.open(board, { flush: 'each' });
    await after.append({ n: 3 });
    await after.close();
  });
});
