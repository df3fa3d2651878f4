/** Reads a run folder and its git history: the effects behind a review, in one place. */
import { describeError } from '../../ground/errors.ts';
import { describeFindings, inspectProject } from '../../host/git/index.ts';
import { type Commit, readCommits } from './git-history.ts';
import { type RunRecord, readRun } from './read-run.ts';

export interface LoadedRun {
  record: RunRecord;
  commits: Commit[];
}

export async function loadRun(dir: string): Promise<LoadedRun> {
  const tampered = describeFindings(dir, await inspectProject(dir));
  const record = await readRun(dir);
  // A tampered repository or record is named first: what it shows may not be what sopworks wrote.
  record.warnings.unshift(...tampered);
  let commits: Commit[] = [];
  try {
    commits = await readCommits(dir);
  } catch (error) {
    record.warnings.push(`The git history of ${dir} could not be read: ${describeError(error)}`);
  }
  return { record, commits };
}
