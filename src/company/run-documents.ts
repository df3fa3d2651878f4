/**
 * The `documents` view: the run's documents as they stand at this point — the client's spec (a change's
 * request), the repository map, the change request and the design delta of a change, the PRD and the
 * design — each the latest *published* one (never a role's draft), null until published. Every prompt of
 * the run opens with them, in this order (roles/_shared/documents.hbs, prompt-renderer.ts), so the calls
 * of all roles and steps share one prefix a provider's prompt cache can serve (docs/performance.md).
 */
import type { BoardReader, Requirement } from '../engine/board/index.ts';
import type { View } from '../engine/steps/index.ts';

/** The view's value: each document's payload, or null. */
export interface RunDocuments {
  spec: string | null;
  repoMap: unknown;
  changeRequest: unknown;
  designDelta: unknown;
  prd: unknown;
  design: unknown;
}

const latest = (board: BoardReader, type: string): unknown => board.latest(type)?.payload ?? null;

export const runDocuments: View = {
  description:
    "The run's published documents, as every prompt opens with them: `spec` (a change's request), `repoMap`, `changeRequest`, `designDelta`, `prd`, `design` (null until published).",
  read: ({ board }): RunDocuments => {
    const requirement = board.latest<Requirement>('Requirement')?.payload;
    return {
      spec: requirement ? (requirement.request ?? requirement.spec ?? null) : null,
      repoMap: latest(board, 'RepositoryMap'),
      changeRequest: latest(board, 'ChangeRequest'),
      designDelta: latest(board, 'DesignDelta'),
      prd: latest(board, 'PRD'),
      design: latest(board, 'Design'),
    };
  },
};
