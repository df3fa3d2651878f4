/**
 * `npm run bench:guard`: what the git-dir guard costs around a sandboxed command — its snapshot and its
 * check of a repository's git dir when nothing changed, then its check after a flood of planted files
 * in `hooks/` (the guard lists every folder in full and removes the flood a file at a time), with the
 * process's resident memory after each: the walk is a stream, so memory should not grow with the flood.
 *
 *   npm run bench:guard -- [--floods 20050,200000]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { restoreGitDir, snapshotGitDir } from '../src/host/sandbox/git-dir-guard.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { floods: { type: 'string', default: '20050,200000' } } });
const floods = values.floods.split(',').map(Number);

const ms = (since: number) => `${(performance.now() - since).toFixed(0)} ms`;
const rss = () => `${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB resident`;

const base = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-bench-guard-'));
try {
  // This checkout's own history, cloned: a real git dir (packs, refs, hooks' samples).
  execFileSync('git', ['clone', '-q', '--no-local', ROOT, path.join(base, 'repository')]);
  const dir = path.join(base, 'repository', '.git');
  let started = performance.now();
  const snapshot = await snapshotGitDir(dir);
  console.log(`snapshot (${snapshot.entries.size} entries): ${ms(started)}, ${rss()}`);
  started = performance.now();
  const unchanged = await restoreGitDir(snapshot);
  console.log(`check, nothing changed: ${ms(started)}, ${unchanged.length} line(s)`);
  for (const flood of floods) {
    execFileSync('sh', ['-c', `cd hooks && seq -f 'f%07.0f' 1 ${flood} | xargs touch && touch pre-commit`], { cwd: dir });
    started = performance.now();
    const lines = await restoreGitDir(snapshot);
    console.log(`check after ${(flood + 1).toLocaleString('en')} planted files: ${ms(started)}, ${rss()}, ${lines.length} line(s): ${lines.join(' | ')}`);
  }
} finally {
  await fs.rm(base, { recursive: true, force: true });
}
