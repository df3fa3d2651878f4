/**
 * The write fence (ground/files/write-fence.ts): a write under a fenced folder asks the fence's check;
 * a run's fence stays with what the run started after the run has returned — a leftover asks the lease
 * of the run that started it, never a newer one of the same folder — and a folder is known by its real
 * path as well as by the path it was fenced under.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertMayWrite, fenceLost, fenceReason, withFencedWrites } from '../../../../src/ground/files/write-fence.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const fenced = (error: Error & { code?: string }) => error.code === 'WRITE_FENCED';

describe('the write fence', () => {
  after(removeTempDirs);

  it("refuses a run's leftover writes after the run returned, by that run's check, even when a newer run holds the folder", async () => {
    const folder = path.join(await tempDir(), 'run');
    let firstLost: string | null = null;
    let leftover: Promise<void> | undefined;
    await withFencedWrites(
      folder,
      () => firstLost,
      null,
      async () => {
        assertMayWrite(path.join(folder, '.git', 'index'));
        // A step still in flight when the run stops: it writes once its command has ended.
        leftover = sleep(100).then(() => assertMayWrite(path.join(folder, '.git', 'index')));
      },
    );
    firstLost = 'its lease was taken by worker-b';
    assert.equal(fenceReason(path.join(folder, 'x')), null, 'outside the run, nothing is fenced any more');
    await withFencedWrites(
      folder,
      () => null,
      null,
      async () => {
        await assert.rejects(leftover!, (error: Error & { code?: string }) => {
          assert.ok(fenced(error));
          assert.match(error.message, /Not written: .*index \(its lease was taken by worker-b\)/);
          return true;
        });
        assertMayWrite(path.join(folder, '.git', 'index'));
      },
    );
  });

  it('fences what lies under the folder only, by the path given and by its real path', async () => {
    const root = await tempDir();
    const real = path.join(root, 'real');
    await fs.mkdir(path.join(real, 'run'), { recursive: true });
    await fs.symlink(real, path.join(root, 'linked'));
    await withFencedWrites(
      path.join(root, 'linked', 'run'),
      () => 'stopped',
      null,
      async () => {
        assert.throws(() => assertMayWrite(path.join(root, 'linked', 'run', 'a')), fenced);
        assert.throws(() => assertMayWrite(path.join(real, 'run', 'a')), fenced, 'the same folder by its real path');
        assert.throws(() => assertMayWrite(path.join(real, 'run')), fenced);
        assertMayWrite(path.join(real, 'run-other', 'a'));
        assertMayWrite(path.join(real, 'a'));
      },
    );
  });

  it("hands out the fence's signal to what a run starts under the folder, firing when the lease is lost", async () => {
    const folder = path.join(await tempDir(), 'run');
    const lease = new AbortController();
    await withFencedWrites(
      folder,
      () => (lease.signal.aborted ? 'lost' : null),
      lease.signal,
      async () => {
        const signal = fenceLost(path.join(folder, 'x'));
        assert.ok(signal && !signal.aborted);
        assert.equal(fenceLost(path.join(path.dirname(folder), 'elsewhere')), null);
        lease.abort('lost');
        assert.equal(signal.aborted, true);
      },
    );
  });
});
