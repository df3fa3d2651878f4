/**
 * The git-dir guard on its own, on a real repository's git dir: folders listed in full and compared
 * with their permissions, what cannot be removed moved out of git's sight, and every listing that
 * cannot complete said — refused before a command, named after it, never called "restored".
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { LINES_PER_FOLDER } from '../../../../src/host/sandbox/change-report.ts';
import { QUARANTINE, restoreGitDir, snapshotGitDir } from '../../../../src/host/sandbox/git-dir-guard.ts';
import { requireSystem, SECOND_USER } from '../../../helpers/system-requirements.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';

const made: string[] = [];

async function gitDir(): Promise<string> {
  const repository = await tempDir('sopworks-guard-');
  made.push(repository);
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q'], { cwd: repository });
  return path.join(repository, '.git');
}

const exists = (file: string) =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );

/** A folder chain longer than PATH_MAX: nothing that works on whole paths (fs.rm, readdir) gets to its end. */
function deepTree(under: string): void {
  const script =
    "const fs = require('node:fs'); for (let i = 0; i < 24; i++) { fs.mkdirSync('d'.repeat(200)); process.chdir('d'.repeat(200)); } fs.writeFileSync('x', '');";
  execFileSync(process.execPath, ['-e', script], { cwd: under });
}

const NOBODY = 65534;

/**
 * The guard as the user `nobody`: it takes the snapshot, root (standing for what that user cannot undo)
 * changes the git dir, then it compares; returns its lines, or the error it ended with.
 */
async function guardAsNobody(
  dir: string,
  changes: { first?: () => Promise<void>; meanwhile?: () => Promise<void> },
): Promise<{ lines?: string[]; error?: string }> {
  execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, path.dirname(dir)]);
  await changes.first?.();
  const guard = pathToFileURL(path.resolve('src/host/sandbox/git-dir-guard.ts')).href;
  const script = `
    const { snapshotGitDir, restoreGitDir } = await import(${JSON.stringify(guard)});
    try {
      const snapshot = await snapshotGitDir(${JSON.stringify(dir)});
      console.log('ready');
      await new Promise((resolve) => process.stdin.once('data', resolve));
      console.log(JSON.stringify({ lines: await restoreGitDir(snapshot) }));
    } catch (error) { console.log(JSON.stringify({ error: error.message })); }
    process.exit(0);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    uid: NOBODY,
    gid: NOBODY,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/^ready$|^\{/m.test(output)) resolve();
    }),
  );
  if (output.startsWith('ready')) {
    await changes.meanwhile?.();
    child.stdin.write('go\n');
  }
  await ended;
  return JSON.parse(output.replace(/^ready\n/, ''));
}

describe('git-dir guard', () => {
  after(async () => {
    // GNU rm: the deep trees are beyond fs.rm's reach.
    for (const dir of made.splice(0)) spawnSync('rm', ['-rf', '--', dir]);
  });

  it('counts a flood in one line that names the hook among it, and removes all of it', async () => {
    const dir = await gitDir();
    const snapshot = await snapshotGitDir(dir);
    const flood = LINES_PER_FOLDER + 5;
    for (let i = 0; i < flood; i++) await fs.writeFile(path.join(dir, 'hooks', `f${String(i).padStart(3, '0')}`), '');
    await fs.writeFile(path.join(dir, 'hooks', 'post-checkout'), '#!/bin/sh\ntouch x\n', { mode: 0o755 });
    await fs.writeFile(path.join(dir, 'config'), '[core]\n\tfsmonitor = touch x\n');
    const lines = await restoreGitDir(snapshot);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.ok(lines.includes("the repository's git dir: config was changed (restored)"), lines.join('\n'));
    assert.ok(
      lines.some((line) =>
        new RegExp(`^the repository's git dir: hooks: ${flood + 1} entries were created \\(post-checkout, f\\d+, f\\d+, f\\d+, …\\) \\(restored\\)$`).test(
          line,
        ),
      ),
      lines.join('\n'),
    );
    assert.deepEqual(
      (await fs.readdir(path.join(dir, 'hooks'))).filter((name) => !name.endsWith('.sample')),
      [],
    );
  });

  it('puts back a folder opened to everyone', async () => {
    const dir = await gitDir();
    const before = (await fs.stat(path.join(dir, 'hooks'))).mode & 0o7777;
    const snapshot = await snapshotGitDir(dir);
    await fs.chmod(path.join(dir, 'hooks'), 0o777);
    assert.deepEqual(await restoreGitDir(snapshot), [`the repository's git dir: hooks changed mode (0${before.toString(8)} to 0777) (restored)`]);
    assert.equal((await fs.stat(path.join(dir, 'hooks'))).mode & 0o7777, before);
  });

  it('moves a planted tree too deep to remove out of git’s sight, and says so', async () => {
    const dir = await gitDir();
    const snapshot = await snapshotGitDir(dir);
    await fs.mkdir(path.join(dir, 'hooks', 'deep'));
    deepTree(path.join(dir, 'hooks', 'deep'));
    const lines = await restoreGitDir(snapshot);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, /^the repository's git dir: hooks\/deep was created \(could not be removed \(ENAMETOOLONG\): moved to sopworks-quarantine\/\S+\)$/);
    assert.equal(await exists(path.join(dir, 'hooks', 'deep')), false);
    assert.equal((await fs.readdir(path.join(dir, QUARANTINE))).length, 1);
    // The quarantine is not compared: the next command's check starts clean.
    assert.deepEqual(await restoreGitDir(await snapshotGitDir(dir)), []);
  });

  it('refuses a git dir over its ceiling before anything runs, saying what to do', async () => {
    const dir = await gitDir();
    const entries = (await snapshotGitDir(dir)).entries.size;
    const refused = await snapshotGitDir(dir, { maxEntries: entries - 2 }).catch((error: unknown) => error);
    assert.ok(SopworksError.isInstance(refused), String(refused));
    assert.match(refused.message, new RegExp(`the repository's git dir cannot be guarded while it runs — it holds more than ${entries - 2} entries`));
    assert.match(refused.hint ?? '', /git gc/);
  });

  describe('as a user who cannot undo everything', () => {
    before(function () {
      requireSystem(this, SECOND_USER);
    });

    it('refuses a git dir with a folder it cannot list, before anything runs', async () => {
      const dir = await gitDir();
      // Root's, as a `sudo git` leaves behind.
      const refused = await guardAsNobody(dir, { first: () => fs.mkdir(path.join(dir, 'refs', 'private'), { mode: 0o700 }) });
      assert.match(refused.error ?? '', /the repository's git dir cannot be guarded while it runs — refs\/private cannot be listed \(EACCES\)/);
    });

    it('names a folder it cannot list afterwards, and never calls it restored', async () => {
      const dir = await gitDir();
      const hooks = path.join(dir, 'hooks');
      const result = await guardAsNobody(dir, {
        meanwhile: async () => {
          await fs.writeFile(path.join(hooks, 'pre-commit'), '#!/bin/sh\ntouch x\n', { mode: 0o755 });
          await fs.chown(hooks, 0, 0);
          await fs.chmod(hooks, 0o711);
        },
      });
      const lines = result.lines ?? [];
      assert.ok(
        lines.some((line) =>
          /: hooks could not be listed \(EACCES\) \(could not be moved away either: EACCES; look at it before you use git there\)$/.test(line),
        ),
        JSON.stringify(result),
      );
      assert.ok(!lines.some((line) => /: hooks.*\(restored\)$/.test(line)), JSON.stringify(result));
      // It said so because it is so: the hook is still there.
      assert.equal(await exists(path.join(hooks, 'pre-commit')), true);
    });
  });
});
