/**
 * The run watcher (apps/review/server/run-watcher.ts) tells a page when its run changes. A run killed
 * with SIGKILL changes no file: its lock stays as it was, so the watcher's signature must change when
 * the lock's owner dies, or an open page shows the run in progress for ever (CI's stop-49 failure: the
 * lock became JSON, the watcher still read a bare pid, and the page was only right when a last write
 * happened to be seen after the kill).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { runSignature, watchRun } from '../../../../../src/apps/review/server/run-watcher.ts';
import { pidScope } from '../../../../../src/ground/pid-scope.ts';
import { removeTempDirs, tempDir } from '../../../../helpers/temp-dir.ts';

async function runDir(): Promise<string> {
  const dir = path.join(await tempDir(), 'run');
  await fs.mkdir(path.join(dir, '.sopworks'), { recursive: true });
  await fs.writeFile(path.join(dir, '.sopworks', 'board.jsonl'), '');
  return dir;
}

const sleeper = (): ChildProcess => spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('the run watcher', () => {
  after(removeTempDirs);

  for (const [form, lockText] of [
    ['the JSON lock a run writes', (pid: number) => `${JSON.stringify({ pid, scope: pidScope(), lease: null, owner: `process ${pid}` })}\n`],
    ['the bare pid written before leases', (pid: number) => `${pid}\n`],
  ] as const) {
    it(`changes its signature when the owner of ${form} is killed, and no file changes`, async () => {
      const dir = await runDir();
      const child = sleeper();
      try {
        await fs.writeFile(path.join(dir, '.sopworks', 'lock'), lockText(child.pid!));
        const living = runSignature(dir);
        assert.match(living, new RegExp(`alive:${child.pid}$`));
        assert.equal(runSignature(dir), living, 'nothing changed, the same signature');
        await kill(child);
        assert.notEqual(runSignature(dir), living);
        assert.match(runSignature(dir), /\|nobody$/);
      } finally {
        child.kill('SIGKILL');
      }
    });
  }

  it('tells a listener that the run stopped within a poll when its process is killed', async () => {
    const dir = await runDir();
    const child = sleeper();
    let changes = 0;
    const watcher = watchRun(dir, () => changes++, { settleMs: 10, pollMs: 50 });
    try {
      await fs.writeFile(path.join(dir, '.sopworks', 'lock'), `${JSON.stringify({ pid: child.pid, scope: pidScope(), lease: null, owner: 'process' })}\n`);
      const deadline = Date.now() + 5000;
      while (changes === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(changes, 1, 'the lock appearing is one change');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(changes, 1, 'a living owner and unchanged files are no change');
      await kill(child);
      while (changes === 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(changes, 2, 'the owner dying is a change');
    } finally {
      watcher.close();
      child.kill('SIGKILL');
    }
  });
});
