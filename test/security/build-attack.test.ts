/**
 * Red team: a repository whose own build (the design's buildCommand, `npm run build`) attacks the host
 * from the tests' sandbox, before the base's tests and before each round. It reads where the user's git
 * dir is from the work tree's `.git` file and tries to plant a hook, change the config and overwrite that
 * `.git` file; it writes a marker into the user's own checkout and beside the run's folder; and it leaves
 * a process behind, which would write the marker later. Then it builds as it should, so the run goes on.
 * Asserted on the host afterwards: no marker anywhere, the user's git metadata (config, hooks, info, HEAD)
 * and the work tree's `.git` byte-identical, the user's checkout untouched, nothing of the build left
 * running — and the build's own output, in the base's report, saying each write was refused.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { changeSetUp, type Reply } from '../helpers/change-repo.ts';
import { BUBBLEWRAP, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

/** The attacking build: each attempt logged as it ended, then the honest build (src/ copied to dist/). */
const attack = (token: string) => `import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
const tried = (what, write) => { try { write(); console.log(what + ': WRITTEN'); } catch (error) { console.log(what + ': refused ' + error.code); } };
const gitDir = fs.readFileSync('.git', 'utf8').replace('gitdir:', '').trim();
const common = path.resolve(gitDir, '..', '..');
const checkout = path.dirname(common);
tried('hook', () => fs.writeFileSync(path.join(common, 'hooks', 'post-commit'), '#!/bin/sh\\ntouch ' + path.join(checkout, 'MARKER') + '\\n', { mode: 0o755 }));
tried('config', () => fs.appendFileSync(path.join(common, 'config'), '[core]\\n\\tfsmonitor = "touch ' + path.join(checkout, 'MARKER') + '"\\n'));
tried('dot-git', () => fs.writeFileSync('.git', 'gitdir: /tmp/elsewhere\\n'));
tried('checkout', () => fs.writeFileSync(path.join(checkout, 'MARKER'), 'from the build\\n'));
tried('beside', () => fs.writeFileSync(path.resolve('..', '..', 'MARKER'), 'from the build\\n'));
const later = spawn(process.execPath, ['-e', "setTimeout(() => require('node:fs').writeFileSync(process.argv[1], 'later'), 3000); setInterval(() => {}, 1000)", path.join(checkout, 'MARKER-LATER'), '${token}'], { detached: true, stdio: 'ignore' });
later.unref();
fs.mkdirSync('dist', { recursive: true });
for (const file of fs.readdirSync('src')) fs.copyFileSync('src/' + file, 'dist/' + file);
console.log('built');
`;

/** sha256 of the user's git metadata that no change run writes (config, hooks, info, HEAD, description), by path. */
async function metadata(gitDir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const skip = new Set(['objects', 'logs', 'worktrees', 'refs', 'index', 'ORIG_HEAD', 'FETCH_HEAD']);
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(gitDir, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      // sopworks adds its run state to info/exclude: that file is compared by the run's own checks.
      if ((relative === '' && skip.has(entry.name)) || child === path.join('info', 'exclude')) continue;
      if (entry.isDirectory()) await walk(child);
      else
        out[child] = createHash('sha256')
          .update(await fs.readFile(path.join(gitDir, child)))
          .digest('hex');
    }
  };
  await walk('');
  return out;
}

/** The processes of this machine whose command line holds `token`. */
async function running(token: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(token)) found.push(`${pid}: ${cmdline.replaceAll('\0', ' ')}`);
  }
  return found;
}

describe("red team: a repository's own build, run before its tests, attacks the host", function () {
  this.timeout(300_000);
  after(removeTempDirs);

  it('writes nothing outside the work tree or into .git, leaves nothing running, and its report says what was refused', async function () {
    requireSystem(this, BUBBLEWRAP);
    const token = `sopworks-build-attack-${randomUUID()}`;
    const fixtureTest = await fs.readFile(path.join(import.meta.dirname, '..', 'fixtures', 'change-js', 'test', 'greet.test.js'), 'utf8');
    const run = await changeSetUp(
      (replies: Reply[]) =>
        replies.map((r) => (r.action === 'write_design_delta' ? { ...r, json: { ...(r.json as object), buildCommand: ['npm', 'run', 'build'] } } : r)),
      {
        extra: {
          'package.json': `${JSON.stringify({ name: 'greetings', type: 'module', scripts: { build: 'node scripts/build.js', test: 'node --test' } }, null, 2)}\n`,
          'scripts/build.js': attack(token),
          '.gitignore': 'dist/\n',
          'test/greet.test.js': fixtureTest.replaceAll("'../src/", "'../dist/"),
        },
      },
    );
    const gitDir = path.join(run.repo, '.git');
    const before = await metadata(gitDir);
    const result = await run.change();
    const dotGit = await fs.readFile(path.join(run.worktree, '.git'), 'utf8');
    // The tests ran on what the build wrote: the base passed, so the build ran, attacks and all.
    assert.match(result.stdout, /tests base: passed \(4 passed, 0 failed\)/, result.stdout + result.stderr);
    for (const marker of [
      path.join(run.repo, 'MARKER'),
      path.join(run.repo, 'MARKER-LATER'),
      path.join(run.dir, 'MARKER'),
      path.join(run.dir, 'out', 'MARKER'),
    ])
      await assert.rejects(fs.lstat(marker), `no ${path.relative(run.dir, marker)}`);
    assert.deepEqual(await metadata(gitDir), before, "the user's config, hooks and info are byte-identical");
    assert.match(dotGit, /^gitdir: .*\.git\/worktrees\//, "the work tree's .git still points into the user's git dir");
    assert.deepEqual(await running(token), [], 'nothing the build started is still running');
    run.untouched();
    const board = (await fs.readFile(path.join(run.worktree, '.sopworks', 'board.jsonl'), 'utf8')).trim().split('\n');
    const base = board.map((line) => JSON.parse(line) as { type?: string; payload?: { build?: { output: string } } }).find((m) => m.type === 'BaselineTests');
    const output = base?.payload?.build?.output ?? '';
    for (const what of ['hook', 'config', 'dot-git', 'checkout', 'beside']) assert.match(output, new RegExp(`^${what}: refused E[A-Z]+$`, 'm'), output);
    assert.match(output, /^built$/m);
  });
});
