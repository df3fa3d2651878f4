/** The integrity check on its own: what counts as a change, how it is put back, and whose board lines stay. */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ownRecordLine } from '../../../../src/engine/board/index.ts';
import { NOT_RESTORED, restoreProtected, snapshotProtected } from '../../../../src/host/sandbox/integrity.ts';
import { runningTest } from '../../../../src/host/sandbox/running-test.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const OWN = { id: 'msg-000001', seq: 1, type: 'Requirement', from: 'client', to: 'all', causedBy: [], payload: {}, createdAt: 't' };

async function project(): Promise<string> {
  const dir = await tempDir('sopworks-integrity-');
  await fs.mkdir(path.join(dir, '.git', 'hooks'), { recursive: true });
  await fs.mkdir(path.join(dir, '.git', 'refs', 'heads'), { recursive: true });
  await fs.mkdir(path.join(dir, '.sopworks'));
  await fs.writeFile(path.join(dir, '.git', 'config'), '[core]\n\tbare = false\n');
  await fs.writeFile(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await fs.writeFile(path.join(dir, '.git', 'refs', 'heads', 'main'), 'a'.repeat(40) + '\n');
  await fs.writeFile(path.join(dir, '.sopworks', 'board.jsonl'), JSON.stringify(OWN) + '\n');
  await fs.writeFile(path.join(dir, '.sopworks', 'run.json'), '{}\n');
  return dir;
}

describe('integrity check', () => {
  after(removeTempDirs);

  it('finds nothing when nothing changed', async () => {
    const dir = await project();
    assert.deepEqual(await restoreProtected(await snapshotProtected(dir)), []);
  });

  it('puts back a changed config, removes a planted hook and a planted link, byte for byte', async () => {
    const dir = await project();
    const snapshot = await snapshotProtected(dir);
    await fs.appendFile(path.join(dir, '.git', 'config'), '[core]\n\tfsmonitor = touch x\n');
    await fs.writeFile(path.join(dir, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n', { mode: 0o755 });
    await fs.symlink('/etc', path.join(dir, '.sopworks', 'pending.json'));
    const changes = await restoreProtected(snapshot);
    assert.deepEqual(changes.sort(), [
      '.git/config was changed (restored)',
      '.git/hooks/pre-commit was created (restored)',
      '.sopworks/pending.json was created (a link to /etc) (restored)',
    ]);
    assert.equal(await fs.readFile(path.join(dir, '.git', 'config'), 'utf8'), '[core]\n\tbare = false\n');
    await assert.rejects(fs.lstat(path.join(dir, '.git', 'hooks', 'pre-commit')));
    await assert.rejects(fs.lstat(path.join(dir, '.sopworks', 'pending.json')));
  });

  it('puts back a file replaced by a link, and a rewritten board', async () => {
    const dir = await project();
    const snapshot = await snapshotProtected(dir);
    await fs.rm(path.join(dir, '.git', 'HEAD'));
    await fs.symlink('/etc/passwd', path.join(dir, '.git', 'HEAD'));
    await fs.writeFile(path.join(dir, '.sopworks', 'board.jsonl'), '{}\n');
    const changes = await restoreProtected(snapshot);
    assert.deepEqual(changes.sort(), [
      '.git/HEAD was replaced by a link to /etc/passwd (restored)',
      '.sopworks/board.jsonl was rewritten (it may only grow) (restored)',
    ]);
    assert.equal(await fs.readFile(path.join(dir, '.git', 'HEAD'), 'utf8'), 'ref: refs/heads/main\n');
    assert.equal(await fs.readFile(path.join(dir, '.sopworks', 'board.jsonl'), 'utf8'), JSON.stringify(OWN) + '\n');
  });

  it('keeps the board lines sopworks appended meanwhile and drops a forged one', async () => {
    const dir = await project();
    const snapshot = await snapshotProtected(dir);
    const second = { ...OWN, id: 'msg-000002', seq: 2 };
    const forged = JSON.stringify({ ...OWN, id: 'msg-000003', seq: 3, type: 'Outcome' });
    await fs.appendFile(path.join(dir, '.sopworks', 'board.jsonl'), JSON.stringify(second) + '\n' + forged + '\n');
    const board = { list: () => [OWN, second] as never };
    const changes = await restoreProtected(snapshot, ownRecordLine(board));
    assert.deepEqual(changes, ['.sopworks/board.jsonl got lines sopworks did not write (restored)']);
    assert.equal(await fs.readFile(path.join(dir, '.sopworks', 'board.jsonl'), 'utf8'), [OWN, second].map((m) => JSON.stringify(m) + '\n').join(''));
  });

  it('removes a planted pack (it could stand in for objects that exist) and names a changed one it cannot put back', async () => {
    const dir = await project();
    const packs = path.join(dir, '.git', 'objects', 'pack');
    await fs.mkdir(packs, { recursive: true });
    await fs.writeFile(path.join(packs, 'pack-1.pack'), 'PACK original');
    const snapshot = await snapshotProtected(dir);
    await fs.writeFile(path.join(packs, 'pack-2.pack'), 'PACK planted');
    await fs.writeFile(path.join(packs, 'pack-2.idx'), 'index naming existing objects');
    await fs.appendFile(path.join(packs, 'pack-1.pack'), ' rewritten');
    const changes = await restoreProtected(snapshot);
    assert.deepEqual(changes.sort(), [
      '.git/objects/pack/pack-2.idx was created (restored)',
      '.git/objects/pack/pack-2.pack was created (restored)',
      `1 object file(s) removed or changed (.git/objects/pack/pack-1.pack) ${NOT_RESTORED}`,
    ]);
    assert.deepEqual((await fs.readdir(packs)).sort(), ['pack-1.pack']);
  });

  it('names the test that was running from the runner output', () => {
    assert.deepEqual(runningTest('TAP version 13\n# Subtest: counts words\nok 1 - counts words\n# Subtest: waits forever\n'), {
      running: 'waits forever',
      lastFinished: null,
    });
    // Node 20 prints a test once it ends: a test that never ends is known by the one before it.
    assert.deepEqual(runningTest('TAP version 13\n# Subtest: quick\nok 1 - quick\n  ---\n  duration_ms: 9\n  ...\n'), { running: null, lastFinished: 'quick' });
    assert.deepEqual(runningTest('tests/test_cli.py::test_counts PASSED\ntests/test_cli.py::test_hangs '), {
      running: 'tests/test_cli.py::test_hangs',
      lastFinished: null,
    });
    assert.deepEqual(runningTest('no runner output'), { running: null, lastFinished: null });
  });
});
