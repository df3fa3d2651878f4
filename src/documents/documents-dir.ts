/**
 * Where a run's reports go: `docs/` in a repository the company makes, the change's own folder
 * (docs/changes/<n>-<slug>/) in a change run — known by the RepositoryMap on the board — and whether
 * they are committed there at all, known by the Requirement.
 */
import type { RepositoryMap } from './change-schemas.ts';

interface LatestReader {
  latest<T = unknown>(type: string): { payload: T } | undefined;
}

export function documentsDir(board: LatestReader): string {
  return board.latest<RepositoryMap>('RepositoryMap')?.payload.changeDir ?? 'docs';
}

/** Whether the run's own documents are committed, or kept in its run folder (the Requirement says: a change's, by default). */
export function documentsCommitted(board: LatestReader): boolean {
  return board.latest<{ documents?: string }>('Requirement')?.payload.documents !== 'run-folder';
}
