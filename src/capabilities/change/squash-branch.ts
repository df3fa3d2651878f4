/**
 * `sopworks change --squash`, once the change is done: its branch becomes one commit on the base — the
 * change request's title as its subject, the commits it replaces listed in its body — with the same tree.
 * One `update-ref` moves the branch, so a crash leaves it either as it was or squashed. The commits'
 * message trailers are kept, so `review` still finds each message's commit.
 */

import { commitSubject } from '../../ground/text/index.ts';
import { git } from '../../host/git/index.ts';

const MESSAGE_TRAILER = /^Sopworks-Message: .+$/gm;

/** Returns the new commit, or null when the branch holds one commit or none past the base. */
export async function squashBranch(worktree: string, base: string, branch: string, title: string): Promise<string | null> {
  const log = await git(worktree, ['log', '--reverse', '--format=%H%x1f%s%x1f%B%x1e', `${base}..HEAD`]);
  const commits = log.stdout
    .split('\x1e')
    .map((record) => record.trim())
    .filter(Boolean)
    .map((record) => {
      const [hash, subject, body] = record.split('\x1f') as [string, string, string];
      return { hash, subject, trailers: body.match(MESSAGE_TRAILER) ?? [] };
    });
  if (commits.length <= 1) return null;
  const message = [commitSubject(title), '', ...commits.map((c) => `- ${c.subject}`), '', ...commits.flatMap((c) => c.trailers)].join('\n');
  const tree = (await git(worktree, ['rev-parse', 'HEAD^{tree}'])).stdout.trim();
  const head = (await git(worktree, ['rev-parse', 'HEAD'])).stdout.trim();
  const author = (await git(worktree, ['log', '-1', '--format=%an%x1f%ae', commits[0]!.hash])).stdout.trim().split('\x1f');
  const commit = (
    await git(worktree, ['commit-tree', tree, '-p', base, '-m', message], {
      identity: { GIT_AUTHOR_NAME: author[0], GIT_AUTHOR_EMAIL: author[1], GIT_COMMITTER_NAME: 'sopworks', GIT_COMMITTER_EMAIL: 'sopworks@sopworks.local' },
    })
  ).stdout.trim();
  // Only if the branch is still where this looked: nothing else moved it meanwhile.
  await git(worktree, ['update-ref', '-m', 'sopworks change --squash', `refs/heads/${branch}`, commit, head]);
  return commit;
}
