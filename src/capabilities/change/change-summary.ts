/**
 * For `review` of a change run: which repository, base and branch, and the change as a diff stat
 * against its base (`git diff --stat <base>...HEAD` in the change's work tree). Null for other runs.
 */
import path from 'node:path';
import { z } from 'zod';
import { STATE_DIR } from '../../engine/run/index.ts';
import { readTextIfExists } from '../../ground/files/index.ts';
import { cleanBlock, cleanLine } from '../../ground/terminal-text.ts';
import { git, NO_DIFF_PROGRAMS } from '../../host/git/index.ts';

/** What run.json keeps of a change run (`change`, written by `sopworks change`). */
// run.json is read back from a folder anyone may have handed over: the base must be a commit id, never
// something git would take for an option (`--output=…`).
export const ChangeRecord = z.object({
  repo: z.string(),
  base: z.string().regex(/^[0-9a-f]{40,64}$/),
  baseName: z.string(),
  branch: z.string(),
  /** Where the change's documents go: the run folder (the default), or commits on the branch (--commit-documents). Absent: commits (runs from before). */
  documents: z.enum(['commit', 'run-folder']).optional(),
  /** Whether the branch becomes one commit once the change is done (--squash). */
  squash: z.boolean().optional(),
});
export type ChangeRecord = z.infer<typeof ChangeRecord>;

export async function changeSummary(projectDir: string): Promise<string | null> {
  const text = await readTextIfExists(path.join(projectDir, STATE_DIR, 'run.json'));
  const parsed = ChangeRecord.safeParse(text === null ? null : (JSON.parse(text) as { change?: unknown }).change);
  if (!parsed.success) return null;
  const change = parsed.data;
  const stat = await git(projectDir, ['diff', ...NO_DIFF_PROGRAMS, '--stat', `${change.base}...HEAD`]).then(
    (r) => r.stdout.trimEnd(),
    (error: Error) => `(the diff could not be read: ${error.message})`,
  );
  const [repo, branch] = [cleanLine(change.repo), cleanLine(change.branch)];
  return [
    `Change of ${repo} on branch ${branch}, from ${cleanLine(change.baseName)} (${change.base.slice(0, 12)})`,
    cleanBlock(stat) || '(no change yet)',
    `Review it: git -C ${repo} diff ${change.base.slice(0, 12)}...${branch}`,
  ].join('\n');
}
