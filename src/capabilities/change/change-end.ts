/**
 * What the end of a change run says, from its record (run.json's `change`) and its board: what the change
 * is (the change request's title and summary, the design's), where its documents are when they are not on
 * the branch, and how to review it, merge it and remove its work tree — or, when the run did not end
 * done, that the branch is not to be merged, and how to drop it. Empty for a run that is not a change.
 */
import path from 'node:path';
import type { ChangeRequest, DesignDelta } from '../../documents/index.ts';
import type { Message } from '../../engine/board/index.ts';
import { STATE_DIR } from '../../engine/run/index.ts';
import { readTextIfExists } from '../../ground/files/index.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { git } from '../../host/git/index.ts';
import { ChangeRecord } from './change-summary.ts';

export interface EndedRun {
  outcome: string;
  projectDir: string;
  messages: readonly Message[];
  /** The run's documents kept out of its commits, relative to its folder. */
  documents: readonly string[];
}

export async function changeEndLines(run: EndedRun): Promise<string[]> {
  const change = await changeRecordOf(run.projectDir);
  if (!change) return [];
  const [repo, branch, worktree] = [cleanLine(change.repo), cleanLine(change.branch), cleanLine(run.projectDir)];
  const base = change.base.slice(0, 12);
  const lines = ['', ...whatItIs(run.messages)];
  if (run.documents.length > 0) {
    const names = run.documents.map((file) => path.posix.basename(file));
    lines.push(`Its documents (not on the branch): ${path.join(worktree, STATE_DIR, 'documents')}/ (${[...new Set(names)].join(', ')})`);
  }
  const remove = `git -C ${repo} worktree remove ${worktree}`;
  if (run.outcome !== 'done') {
    lines.push(`Do not merge ${branch}: the run ended ${run.outcome}, not done.`, `To drop it: ${remove} --force && git -C ${repo} branch -D ${branch}`);
    return lines;
  }
  const count = await git(repo, ['rev-list', '--count', `${change.base}..refs/heads/${change.branch}`]).then(
    (r) => r.stdout.trim(),
    () => '?',
  );
  lines.push(
    `The change is ${count} commit${count === '1' ? '' : 's'} on ${branch}, from ${cleanLine(change.baseName)} (${base}):`,
    `  review it:  git -C ${repo} log --stat ${base}..${branch}   (or: git -C ${repo} diff ${base}...${branch})`,
    `  merge it:   git -C ${repo} merge ${branch}`,
    `  then remove its work tree:  ${remove}   (and the branch, once merged: git -C ${repo} branch -d ${branch})`,
  );
  return lines;
}

/** The change request's title and summary, the design's summary: one line each. */
function whatItIs(messages: readonly Message[]): string[] {
  const latest = <T>(type: string) => messages.filter((m) => m.type === type).at(-1)?.payload as T | undefined;
  const request = latest<ChangeRequest>('ChangeRequest');
  const design = latest<DesignDelta>('DesignDelta');
  return [
    request ? `Change request: ${cleanLine(request.title)} — ${cleanLine(request.summary)}` : null,
    design ? `Design: ${cleanLine(design.summary)}` : null,
  ].filter((line): line is string => line !== null);
}

async function changeRecordOf(projectDir: string): Promise<ChangeRecord | null> {
  const text = await readTextIfExists(path.join(projectDir, STATE_DIR, 'run.json')).catch(() => null);
  if (text === null) return null;
  try {
    const parsed = ChangeRecord.safeParse((JSON.parse(text) as { change?: unknown }).change);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
