/**
 * For `review` of a change run: which repository, base and branch, and the change as a diff stat
 * against its base (`git diff --stat <base>...HEAD` in the change's work tree). Null for other runs.
 */
import path from 'node:path';
import { z } from 'zod';
import { readTextIfExists } from '../../ground/files/read-text-if-exists.ts';
import { git } from '../../host/git/git-process.ts';
import { STATE_DIR } from '../../engine/run/state-dir.ts';

/** What run.json keeps of a change run (`change`, written by `sopworks change`). */
export const ChangeRecord = z.object({ repo: z.string(), base: z.string(), baseName: z.string(), branch: z.string() });

export async function changeSummary(projectDir: string): Promise<string | null> {
  const text = await readTextIfExists(path.join(projectDir, STATE_DIR, 'run.json'));
  const parsed = ChangeRecord.safeParse(text === null ? null : (JSON.parse(text) as { change?: unknown }).change);
  if (!parsed.success) return null;
  const change = parsed.data;
  const stat = await git(projectDir, ['diff', '--stat', `${change.base}...HEAD`]).then(
    (r) => r.stdout.trimEnd(),
    (error: Error) => `(the diff could not be read: ${error.message})`,
  );
  return [
    `Change of ${change.repo} on branch ${change.branch}, from ${change.baseName} (${change.base.slice(0, 12)})`,
    stat || '(no change yet)',
    `Review it: git -C ${change.repo} diff ${change.base.slice(0, 12)}...${change.branch}`,
  ].join('\n');
}
