/**
 * A git repository of the given files, committed once in a temporary folder (removed by removeTempDirs):
 * what a unit test reads "at the base" from, and `git` to run more commands in it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { tempDir } from './temp-dir.ts';

export const gitIn =
  (root: string) =>
  (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: root, encoding: 'utf8' });

/** Writes `files` into `root` (a new temporary folder when not given) and commits them all. */
export async function committedRepository(files: Record<string, string>, root?: string): Promise<{ root: string; base: string }> {
  const dir = root ?? (await tempDir('sopworks-repo-'));
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), content);
  }
  const git = gitIn(dir);
  git('init', '--quiet');
  git('add', '.');
  git('commit', '--quiet', '-m', 'fixture');
  return { root: dir, base: git('rev-parse', 'HEAD').trim() };
}
