/**
 * What a queued run starts that writes by itself — git's import stream, a sandboxed command — once the
 * run's lease is lost (ground/files/write-fence.ts), with real git and real processes: killed when the
 * lease's signal fires, and, found fenced when it ends, writing nothing into the folder another worker
 * now owns — no branch moved, no index, no crash report; no copy-back, no "putting back" of that
 * worker's board lines, index or packs. Asserted on the folder and on the processes left.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { withFencedWrites } from '../../src/ground/files/index.ts';
import { GitImporter } from '../../src/host/git/index.ts';
import { DEFAULT_LIMITS, runSandboxed } from '../../src/host/sandbox/index.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout.trim();
const WHO = { name: 'sopworks', email: 'sopworks@example.invalid' };
const commitOf = (file: string, content: string) => ({ files: [{ path: file, content }], author: WHO, committer: WHO, message: `add ${file}` });
const fenced = (error: Error & { code?: string }) => error.code === 'WRITE_FENCED';

/** A repository with one commit made through git's import stream, and a board. */
async function project(): Promise<{ dir: string; first: string }> {
  const dir = path.join(await tempDir(), 'run');
  await fs.mkdir(path.join(dir, '.sopworks'), { recursive: true });
  await git(dir, 'init', '--quiet', '--initial-branch=main');
  await fs.writeFile(path.join(dir, '.sopworks', 'board.jsonl'), '{"id":"msg-000001"}\n');
  const importer = new GitImporter(dir, 'refs/heads/main');
  const [first] = await importer.commit([commitOf('a.txt', 'a\n')], null);
  await importer.close();
  await fs.rm(path.join(dir, '.git', 'index'));
  return { dir, first: first! };
}

/** Processes whose command line or working folder names `token`. */
async function processesWith(token: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await fs.readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const command = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').join(' ');
    const cwd = await fs.readlink(`/proc/${pid}/cwd`).catch(() => '');
    if (command.includes(token) || cwd.includes(token)) found.push(`${pid}: ${command}`);
  }
  return found;
}

async function noneLeft(token: string): Promise<void> {
  const end = Date.now() + 5000;
  while ((await processesWith(token)).length > 0 && Date.now() < end) await sleep(50);
  assert.deepEqual(await processesWith(token), [], 'nothing left running');
}

/** What another worker does to the folder meanwhile: posts, brings the index along, writes a pack. */
async function anotherWorkerWrites(dir: string): Promise<string[]> {
  await fs.appendFile(path.join(dir, '.sopworks', 'board.jsonl'), '{"id":"msg-000002"}\n');
  await git(dir, 'read-tree', 'HEAD');
  await exec('sh', ['-c', 'git rev-list --objects --all | git pack-objects --quiet .git/objects/pack/pack'], { cwd: dir });
  return (await fs.readdir(path.join(dir, '.git', 'objects', 'pack'))).sort();
}

async function assertUntouched(dir: string, first: string, packs: string[]): Promise<void> {
  assert.equal(
    await fs.readFile(path.join(dir, '.sopworks', 'board.jsonl'), 'utf8'),
    '{"id":"msg-000001"}\n{"id":"msg-000002"}\n',
    'the board as the other worker left it',
  );
  assert.ok(await fs.stat(path.join(dir, '.git', 'index')), "the other worker's index is there");
  assert.deepEqual((await fs.readdir(path.join(dir, '.git', 'objects', 'pack'))).sort(), packs, "the other worker's packs are there");
  assert.equal(await git(dir, 'rev-parse', 'refs/heads/main'), first);
  assert.deepEqual(
    (await fs.readdir(path.join(dir, '.git'))).filter((name) => name.startsWith('fast_import_crash')),
    [],
    'no crash report',
  );
  await git(dir, 'fsck', '--full', '--strict', '--no-progress');
}

describe('a queued run that lost its lease, and what it started', function () {
  this.timeout(60_000);
  after(removeTempDirs);

  it("kills git's import stream when the lease is lost: the branch stays at the last checkpoint, no index, no crash report", async () => {
    const { dir, first } = await project();
    const lease = new AbortController();
    await withFencedWrites(
      dir,
      () => (lease.signal.aborted ? 'its lease was taken by worker-b' : null),
      lease.signal,
      async () => {
        const importer = new GitImporter(dir, 'refs/heads/main');
        const [second] = await importer.commit([commitOf('b.txt', 'b\n')], first);
        assert.match((await processesWith(dir)).join('\n'), /git fast-import/, 'git runs between batches');
        lease.abort();
        await noneLeft(dir);
        assert.equal(await importer.close(), false, 'nothing to end: git is gone');
        await assert.rejects(importer.commit([commitOf('c.txt', 'c\n')], second!), fenced);
        assert.equal(await git(dir, 'rev-parse', 'refs/heads/main'), second);
      },
    );
    await assert.rejects(fs.stat(path.join(dir, '.git', 'index')), /ENOENT/);
    assert.deepEqual(
      (await fs.readdir(path.join(dir, '.git'))).filter((name) => name.startsWith('fast_import_crash')),
      [],
    );
    await git(dir, 'fsck', '--full', '--strict', '--no-progress');
  });

  it('does not end the stream of a run found fenced at its end (a paused worker waking): the branch and index are left to the new owner', async () => {
    const { dir, first } = await project();
    let lost: string | null = null;
    await withFencedWrites(
      dir,
      () => lost,
      null,
      async () => {
        const importer = new GitImporter(dir, 'refs/heads/main');
        const [mine] = await importer.commit([commitOf('b.txt', 'b\n')], first);
        // Meanwhile the other worker resets the run to where it resumes from, and writes its own.
        lost = 'no renewal of its lease reached Redis for 1333 ms';
        await git(dir, 'update-ref', 'refs/heads/main', first, mine!);
        const packs = await anotherWorkerWrites(dir);
        assert.equal(await importer.close(), false);
        await noneLeft(dir);
        await assertUntouched(dir, first, packs);
      },
    );
  });

  it('kills a sandboxed command when the lease is lost, and copies back or puts back nothing', async () => {
    const { dir, first } = await project();
    const lease = new AbortController();
    const token = `sopworks-fence-${process.pid}-a`;
    const started = Date.now();
    await withFencedWrites(
      dir,
      () => (lease.signal.aborted ? 'its lease was taken by worker-b' : null),
      lease.signal,
      async () => {
        const running = runSandboxed({
          argv: ['node', '-e', `require('fs').writeFileSync('made.txt', 'x'); setTimeout(() => {}, 30000) // ${token}`],
          projectDir: dir,
          limits: { ...DEFAULT_LIMITS, wallSeconds: 60 },
          setting: 'fallback',
          allowUnsandboxed: false,
        });
        while ((await processesWith(token)).length === 0) await sleep(50);
        const packs = await anotherWorkerWrites(dir);
        lease.abort();
        await assert.rejects(running, fenced);
        assert.ok(Date.now() - started < 20_000, 'killed, not waited for');
        await noneLeft(token);
        await assertUntouched(dir, first, packs);
        await assert.rejects(fs.stat(path.join(dir, 'made.txt')), /ENOENT/, 'its scratch copy is not copied back');
      },
    );
  });

  it('puts back nothing when a command that ran on ends after the lease expired unheard (a paused worker waking)', async () => {
    const { dir, first } = await project();
    let lost: string | null = null;
    const token = `sopworks-fence-${process.pid}-b`;
    await withFencedWrites(
      dir,
      () => lost,
      null,
      async () => {
        const running = runSandboxed({
          argv: ['node', '-e', `setTimeout(() => {}, 1500) // ${token}`],
          projectDir: dir,
          limits: { ...DEFAULT_LIMITS, wallSeconds: 60 },
          setting: 'fallback',
          allowUnsandboxed: false,
        });
        while ((await processesWith(token)).length === 0) await sleep(50);
        const packs = await anotherWorkerWrites(dir);
        lost = 'no renewal of its lease reached Redis for 1333 ms';
        await assert.rejects(running, (error: Error & { code?: string }) => fenced(error) && /no renewal of its lease/.test(error.message));
        await noneLeft(token);
        await assertUntouched(dir, first, packs);
      },
    );
  });
});
