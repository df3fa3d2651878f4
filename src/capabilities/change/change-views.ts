/**
 * The views of a change run (src/engine/steps/views.ts says what a view is): its documents on the board,
 * and the current file's change task.
 */

import {
  type ChangeRequest,
  type ChangeTask,
  type ChangeTaskGraph,
  type Code,
  changeCriteria,
  codeInterface,
  type DesignDelta,
  type Removal,
} from '../../documents/index.ts';
import type { BoardReader } from '../../engine/board/index.ts';
import { latestOf, type View } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';

/** The current file's change task; a file a bug report names outside the tasks is a modification. */
export function currentChangeTask(board: Pick<BoardReader, 'latest'>, current: string | null): ChangeTask {
  const task = board.latest<ChangeTaskGraph>('ChangeTaskGraph')?.payload.tasks.find((t) => t.file === current);
  if (task) return task;
  if (!current) throw new SopworksError('SOP_INVALID', 'No current file: "changeTask" is a view of per-file steps.');
  return { file: current, op: 'modify', from: null, description: `Fix ${current} as the bug report says.`, dependsOn: [] };
}

export const changeTask: View = {
  description:
    "A change run's current file's task from the ChangeTaskGraph: `file`, `op`, `from`, `description`, `dependsOn` (a file a bug report names outside the tasks: a modification).",
  read: ({ context, board }) => currentChangeTask(board, context.current),
};

/**
 * What the current task's dependencies are once this change has made them: a README or a .d.ts that
 * describes index.js is shown index.js as the change leaves it, not as the base had it.
 */
export const changeDependencies: View = {
  description:
    "A change run's current file's dependencies (its task's `dependsOn`): each `path` and the `interface` of the file as this change has written it so far — its exported names with whole signatures — or `(not written yet)`.",
  needsCurrent: true,
  read: ({ context, board }) => {
    const written = new Map(board.all<Code>('Code').map((m) => [m.payload.path, m.payload.content]));
    return Promise.all(
      currentChangeTask(board, context.current).dependsOn.map(async (dep) => {
        // A file written in this batch may still wait for its turn on the board: its content is in the context.
        const content = context.written?.[dep] ?? written.get(dep);
        return { path: dep, interface: content !== undefined ? await codeInterface(dep, content, context.current ?? undefined) : '(not written yet)' };
      }),
    );
  },
};

/**
 * What the current file's change is judged by besides its task (its review names each by id): the change
 * request's acceptance criteria it serves, what must keep working, and its row in the design delta.
 */
export const editCriteria: View = {
  description:
    "What the current file's change is judged by: `named` (its task lists the change request's acceptance criteria it serves by number), `items` (those criteria, each `id` — AC-n — and `text`; all of them when its task names none), `keep` (what must keep working, each `id` KW-n and `text`), and `file` (the design delta's row for the file — `path`, `purpose` — or null when the delta lists none).",
  needsCurrent: true,
  read: ({ context, board }) => {
    const request = board.latest<ChangeRequest>('ChangeRequest')?.payload;
    // The ids as the change request, the tests and the coverage matrix give them (documents/criteria.ts).
    const criteria = request ? changeCriteria(request) : [];
    const numbers = currentChangeTask(board, context.current).criteria;
    const served = new Set((numbers ?? []).map((n) => `AC-${n}`));
    const row = board.latest<DesignDelta>('DesignDelta')?.payload.files.find((f) => f.path === context.current) ?? null;
    return {
      named: numbers !== undefined,
      items: criteria.filter((c) => c.id.startsWith('AC-') && (numbers === undefined || served.has(c.id))).map(({ id, text }) => ({ id, text })),
      keep: criteria.filter((c) => c.id.startsWith('KW-')).map(({ id, text }) => ({ id, text })),
      file: row ? { path: row.path, purpose: row.purpose } : null,
    };
  },
};

/** What a delete or rename task removes: a Removal, with a rename's new content from the `draft` slot. */
export const changeRemoval: View = {
  description: "What the current delete or rename task removes, as a Removal: `path`, `renamedTo`, and a rename's `content` (from the slot draft).",
  read: ({ context, board }): Removal => {
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

export const repoMap = latestOf(
  'RepositoryMap',
  'The latest RepositoryMap (a change run): `tree`, `manifests`, `readmes`, `interfaces`, `hasTests`, `fileCount`, `omitted`, `base`, `branch`, `changeDir`, and `tests` (`files`, `commands`, `examples`, the build steps it declares `builds`, and `unbuilt`: entry points it does not hold).',
);
export const changeRequest = latestOf('ChangeRequest', 'The latest ChangeRequest.');
export const designDelta = latestOf('DesignDelta', 'The latest DesignDelta.');
export const changeTasks = latestOf('ChangeTaskGraph', 'The latest ChangeTaskGraph.');
/**
 * The `existingTests` slot the nearestTests step keeps, for a run whose QA was already past that step when
 * it was saved — under a change SOP from before the step existed, resumed in writingTests: it kept no such
 * slot, and its prompt is shown no existing tests rather than failing (the slot, when kept, comes first).
 */
export const existingTests: View = {
  description:
    "The repository's existing tests nearest to the change, as the slot the nearestTests step keeps (`files`); a run saved before its SOP had that step has none: `files` is empty.",
  read: () => ({ files: [] }),
};

export const baseline = latestOf('BaselineTests', 'The latest BaselineTests: the existing tests as they ran on the base, before the change.');
