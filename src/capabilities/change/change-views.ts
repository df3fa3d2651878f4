/**
 * The views of a change run (src/capabilities/artifacts/views.ts lists them with the others): its documents on the board,
 * and the current file's change task.
 */
import { SopworksError } from '../../ground/errors.ts';
import type { ChangeTask, ChangeTaskGraph, Removal } from '../../documents/change-schemas.ts';

interface Reader {
  latest<T = unknown>(type: string): { payload: T } | undefined;
}

/** Views that are the latest published document of a message type (unless the role holds a slot). */
export const changeArtifactViews: Record<string, string> = {
  repoMap: 'RepositoryMap',
  changeRequest: 'ChangeRequest',
  designDelta: 'DesignDelta',
  changeTasks: 'ChangeTaskGraph',
  baseline: 'BaselineTests',
};

/** The current file's change task; a file a bug report names outside the tasks is a modification. */
export function currentChangeTask(board: Reader, current: string | null): ChangeTask {
  const task = board.latest<ChangeTaskGraph>('ChangeTaskGraph')?.payload.tasks.find((t) => t.file === current);
  if (task) return task;
  if (!current) throw new SopworksError('SOP_INVALID', 'No current file: "changeTask" is a view of per-file steps.');
  return { file: current, op: 'modify', from: null, description: `Fix ${current} as the bug report says.`, dependsOn: [] };
}

type Scope = { context: { current: string | null; slots: Record<string, unknown> }; board: Reader };

export const changeViews = {
  changeTask: ({ context, board }: Scope) => currentChangeTask(board, context.current),
  /** What a delete or rename task removes: a Removal, with a rename's new content from the `draft` slot. */
  changeRemoval: ({ context, board }: Scope): Removal => {
    const task = currentChangeTask(board, context.current);
    if (task.op === 'rename' && task.from) {
      const draft = context.slots.draft as { content?: unknown } | undefined;
      if (typeof draft?.content !== 'string')
        throw new SopworksError('SOP_INVALID', `"changeRemoval" of a rename needs the moved file's content in the slot draft (edit it first).`);
      return { path: task.from, renamedTo: task.file, content: draft.content };
    }
    if (task.op !== 'delete') throw new SopworksError('SOP_INVALID', `"changeRemoval" is for delete and rename tasks; ${task.file} is to ${task.op}.`);
    return { path: task.file, renamedTo: null, content: null };
  },
};
