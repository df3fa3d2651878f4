/** The engine's own views: the run's requirement and the role's context. Capabilities add theirs. */
import { SopworksError } from '../../ground/errors.ts';
import type { BoardReader, Requirement } from '../board/index.ts';
import type { View } from './views.ts';

const requirement = (board: BoardReader): Requirement => {
  const message = board.latest<Requirement>('Requirement');
  if (!message) throw new SopworksError('SOP_INVALID', 'No Requirement is on the board yet.');
  return message.payload;
};

export const spec: View = {
  description: "The client's one-line spec (from the Requirement).",
  read: ({ board }) => requirement(board).spec ?? '',
};
export const request: View = {
  description: "A change run's request, in the person's words (from the Requirement).",
  // A change run posted before the request kept its name has only `spec`.
  read: ({ board }) => {
    const asked = requirement(board);
    return asked.request ?? asked.spec ?? '';
  },
};
export const project: View = { description: 'The project name (from the Requirement).', read: ({ board }) => requirement(board).project };
export const error: View = { description: 'The last error noted by `noteError` (empty when none).', read: ({ context }) => context.error ?? '' };
export const errors: View = {
  description: 'Every error noted by `noteError` since the last `clearError`, oldest first: each round of a correction loop (empty when none).',
  read: ({ context }) => context.errors ?? (context.error ? [context.error] : []),
};
export const done: View = { description: 'The files finished since the queue was last filled.', read: ({ context }) => context.done };
export const current: View = { description: 'The path of the current file (null when none).', read: ({ context }) => context.current };
