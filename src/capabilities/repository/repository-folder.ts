/**
 * The generated repository's folder on disk: where its git folder is (a linked work tree's `.git` is a
 * file pointing elsewhere), and making it a repository with sopworks's own committer identity.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertMayWrite } from '../../ground/files/index.ts';
import { git, type Identity } from '../../host/git/index.ts';

/** Who commits every artifact (each is authored by its role). */
export const COMMITTER: Identity = { name: 'sopworks', email: 'sopworks@sopworks.local' };

/**
 * The repository's git folder: `.git` itself, or — in a work tree added by `git worktree add` (a change
 * run's) — the folder its `.git` file points to.
 */
export async function gitDirOf(root: string): Promise<string> {
  const dotGit = path.join(root, '.git');
  const pointer = await fs.readFile(dotGit, 'utf8').catch(() => null);
  const match = pointer === null ? null : /^gitdir: (.+)$/m.exec(pointer);
  return match ? path.resolve(root, match[1]!.trim()) : dotGit;
}

export const exists = (file: string): Promise<boolean> =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/**
 * Makes `root` a repository with the repository's own committer identity, so a person committing there later is not taken for the
 * user whose global identity git would use. Appended to the config file `git init` wrote, in git's own
 * format: three `git config` processes would cost the run's start a few ms each.
 */
export async function startRepository(root: string): Promise<void> {
  assertMayWrite(root);
  await git(root, ['init', '--quiet']); // in a repository already there (a resumed run), harmless
  const config = path.join(root, '.git', 'config');
  const identity = `[user]\n\tname = ${COMMITTER.name}\n\temail = ${COMMITTER.email}\n[commit]\n\tgpgsign = false\n`;
  if (!(await fs.readFile(config, 'utf8')).includes(identity)) await fs.appendFile(config, identity);
}
