/**
 * Where a run's reports go: `docs/` in a repository the company makes, the change's own folder
 * (docs/changes/<n>-<slug>/) in a change run — known by the RepositoryMap on the board.
 */
import type { RepositoryMap } from './change-schemas.ts';

interface LatestReader {
  latest<T = unknown>(type: string): { payload: T } | undefined;
}

export function documentsDir(board: LatestReader): string {
  return board.latest<RepositoryMap>('RepositoryMap')?.payload.changeDir ?? 'docs';
}
