/**
 * What a change run wrote, for the evaluation table: the code files its branch changed against the
 * base, and the lines it added — not the repository it was given. Null for a run that is no change.
 */
import path from 'node:path';
import { ChangeRecord } from '../../capabilities/change/index.ts';
import { STATE_DIR } from '../../engine/run/index.ts';
import { readTextIfExists } from '../../ground/files/index.ts';
import { git, NO_DIFF_PROGRAMS } from '../../host/git/index.ts';

export interface ChangedCode {
  files: string[];
  /** The lines the change added to each of those files, blank ones included (as `+` lines of the diff). */
  added: Map<string, string[]>;
}

export async function changedCode(projectDir: string, isCode: (file: string) => boolean): Promise<ChangedCode | null> {
  const text = await readTextIfExists(path.join(projectDir, STATE_DIR, 'run.json'));
  const record = ChangeRecord.safeParse(text === null ? null : (JSON.parse(text) as { change?: unknown }).change);
  if (!record.success) return null;
  const range = `${record.data.base}...HEAD`;
  const names = await git(projectDir, ['-c', 'core.quotePath=false', 'diff', ...NO_DIFF_PROGRAMS, '--name-only', '--diff-filter=AMR', '-z', range]);
  const files = names.stdout.split('\0').filter((file) => file !== '' && isCode(file));
  const added = new Map<string, string[]>();
  if (files.length === 0) return { files, added };
  const diff = await git(projectDir, ['-c', 'core.quotePath=false', 'diff', ...NO_DIFF_PROGRAMS, '--unified=0', range, '--', ...files]);
  let lines: string[] = [];
  // A file's header (`diff --git`, `---`, `+++ b/<path>`) comes before its first hunk (`@@`); inside the
  // hunks a line `+++ …` is an added line that starts with `++ `, not a header.
  let inHunks = false;
  for (const line of diff.stdout.split('\n')) {
    if (line.startsWith('diff --git ')) inHunks = false;
    else if (line.startsWith('@@')) inHunks = true;
    else if (!inHunks && line.startsWith('+++ b/')) {
      lines = [];
      added.set(line.slice('+++ b/'.length), lines);
    } else if (inHunks && line.startsWith('+')) lines.push(line.slice(1));
  }
  return { files, added };
}
