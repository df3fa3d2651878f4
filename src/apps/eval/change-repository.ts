/**
 * The repository a change task of a suite starts from, made once per suite run under
 * `<out>/.repositories/<name>/` so the task's source is never touched: a git repository is cloned and
 * its `commit` checked out as `main` — a public one named by `url:` too, network permitting; a plain folder (a fixture) is copied and committed as it is, in one
 * commit whose author and dates are fixed — so every run of the suite starts from the same commit, and
 * the same scenario gives the same branch. A repository made earlier (a suite run again) is kept.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../ground/errors.ts';
import { git } from '../../host/git/index.ts';
import type { ChangeSource } from './suite-file.ts';

/** The fixed identity of a fixture's one commit. */
const FIXTURE_COMMIT = {
  GIT_AUTHOR_NAME: 'sopworks eval',
  GIT_AUTHOR_EMAIL: 'eval@sopworks.local',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'sopworks eval',
  GIT_COMMITTER_EMAIL: 'eval@sopworks.local',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
};

export const repositoriesDir = (out: string): string => path.join(out, '.repositories');

export async function changeRepository(out: string, name: string, change: ChangeSource): Promise<string> {
  const dest = path.join(repositoriesDir(out), name);
  if (await isRepositoryTop(dest)) return dest;
  await fs.rm(dest, { recursive: true, force: true });
  await fs.mkdir(path.dirname(dest), { recursive: true });
  if ('url' in change) await cloneFromUrl(name, change.url, change.commit, dest);
  else if (await isRepositoryTop(change.repo)) await cloneAt(change.repo, change.commit, dest);
  else if (change.commit !== null) {
    throw new SopworksError('CONFIG_INVALID', `The change task ${name} names commit "${change.commit}", but ${change.repo} is not a git repository.`, {
      hint: 'Drop `commit:` for a plain folder (it is committed as it is), or point `repo:` at a git repository.',
    });
  } else await commitFolder(change.repo, dest);
  return dest;
}

async function isRepositoryTop(dir: string): Promise<boolean> {
  const top = await git(dir, ['rev-parse', '--show-toplevel'], { okCodes: [128] }).catch(() => null);
  return top !== null && top.code === 0 && path.resolve(top.stdout.trim()) === path.resolve(dir);
}

async function cloneAt(source: string, commit: string | null, dest: string): Promise<void> {
  const wanted = await git(source, ['rev-parse', '--verify', '--quiet', `${commit ?? 'HEAD'}^{commit}`], { okCodes: [1] });
  if (wanted.code !== 0) {
    throw new SopworksError('CONFIG_INVALID', `No commit "${commit ?? 'HEAD'}" in ${source}.`, {
      hint: 'Name a branch, tag or commit of that repository in `commit:` (`git -C <repo> log --oneline` lists them).',
    });
  }
  // The suite's own repository, on this machine: git's hardening forbids the file transport (a submodule's
  // way in), allowed here for this one clone, which fetches no submodule.
  await git(path.dirname(dest), ['-c', 'protocol.file.allow=always', 'clone', '--quiet', '--no-checkout', '--no-hardlinks', source, dest]);
  await git(dest, ['checkout', '--quiet', '-B', 'main', wanted.stdout.trim()]);
}

/**
 * A public repository named by URL: cloned (https only, no submodule), its pinned commit checked out as
 * `main`. Without the network the task cannot start, and says so; nothing of it is kept beside the suite.
 */
async function cloneFromUrl(name: string, url: string, commit: string, dest: string): Promise<void> {
  const cloned = await git(path.dirname(dest), ['-c', 'protocol.https.allow=always', 'clone', '--quiet', '--no-checkout', url, dest]).catch(
    (error: Error) => error,
  );
  if (cloned instanceof Error) {
    await fs.rm(dest, { recursive: true, force: true });
    throw new SopworksError('CONFIG_INVALID', `The change task ${name}'s repository ${url} could not be cloned: ${cloned.message}`, {
      hint: 'Run the suite where the network reaches it, or clone it yourself and give `repo:` the folder (with the same `commit:`).',
    });
  }
  const wanted = await git(dest, ['rev-parse', '--verify', '--quiet', `${commit}^{commit}`], { okCodes: [1] });
  if (wanted.code !== 0) {
    throw new SopworksError('CONFIG_INVALID', `No commit ${commit} in ${url}.`, {
      hint: 'Pin a commit the repository has (`git ls-remote` or its history names them).',
    });
  }
  await git(dest, ['checkout', '--quiet', '-B', 'main', commit]);
}

async function commitFolder(source: string, dest: string): Promise<void> {
  await fs.cp(source, dest, { recursive: true, filter: (from) => path.basename(from) !== '.git' });
  await git(dest, ['init', '--quiet', '--initial-branch=main']);
  await git(dest, ['add', '--all']);
  await git(dest, ['commit', '--quiet', '--no-verify', '-m', `${path.basename(source)} as the suite ships it`], { identity: FIXTURE_COMMIT });
}
