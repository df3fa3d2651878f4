/**
 * Views: the named values a SOP step can hand to a template (`with: [prd, design]`) or put in a payload
 * (`payload: draft`). Each is derived from the role's context and the board — the board is the source
 * of truth, so a view is the same whenever it is read. A role's own slot of the same name (its draft of
 * the design, say) takes precedence over the latest published artifact.
 */
import { SopworksError } from '../../ground/errors.ts';
import type { BoardReader } from '../../company/message-types.ts';
import type { Code, Design, Requirement, TaskGraph } from '../../documents/schemas.ts';
import { designExcerpt } from './design-excerpt.ts';
import { topologicalOrder } from '../../documents/task-graph.ts';
import { codeInterface } from '../../documents/code-interface.ts';
import type { RoleContext } from '../../engine/sop/role-context.ts';
import { changeArtifactViews, changeViews } from '../change/change-views.ts';

export interface ViewScope {
  context: RoleContext;
  board: BoardReader;
}

/** Views that are the latest published artifact of a message type (unless the role holds a slot). */
export const artifactViews: Record<string, string> = {
  prd: 'PRD',
  design: 'Design',
  tasks: 'TaskGraph',
  tests: 'Tests',
  testReport: 'TestReport',
  bug: 'BugReport',
  // A change run's documents (sopworks change).
  ...changeArtifactViews,
};

type View = (scope: ViewScope) => unknown;

const requirement = (board: BoardReader): Requirement => {
  const message = board.latest<Requirement>('Requirement');
  if (!message) throw new SopworksError('SOP_INVALID', 'No Requirement is on the board yet.');
  return message.payload;
};

/** The newest Code message per path, in task order. */
export function latestCode(board: BoardReader): Code[] {
  const messages = board.all<Code>('Code');
  const graph = board.latest<TaskGraph>('TaskGraph')?.payload;
  // Asked for by every per-file prompt: worked out again only when a Code or the task graph is new.
  const cached = latestCodeCache.get(board);
  if (cached && cached.codes === messages.length && cached.graph === graph) return cached.value;
  const byPath = new Map<string, Code>();
  for (const message of messages) byPath.set(message.payload.path, message.payload);
  const order = new Map((graph ? topologicalOrder(graph) : []).map((file, index) => [file, index]));
  const rank = (p: string) => order.get(p) ?? order.size;
  const value = [...byPath.values()].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  latestCodeCache.set(board, { codes: messages.length, graph, value });
  return value;
}
const latestCodeCache = new WeakMap<BoardReader, { codes: number; graph: TaskGraph | undefined; value: Code[] }>();

const currentTask = ({ context, board }: ViewScope) => {
  const graph = board.latest<TaskGraph>('TaskGraph')?.payload;
  const task = graph?.tasks.find((t) => t.file === context.current);
  if (!task) throw new SopworksError('SOP_INVALID', `No task for the current file "${context.current ?? '(none)'}".`);
  return task;
};

export const builtInViews: Record<string, View> = {
  spec: ({ board }) => requirement(board).spec,
  project: ({ board }) => requirement(board).project,
  error: ({ context }) => context.error ?? '',
  done: ({ context }) => context.done,
  current: ({ context }) => context.current,
  task: currentTask,
  dependencies: (scope) => {
    const code = latestCode(scope.board);
    return currentTask(scope).dependsOn.map((dep) => {
      // A file written in this batch may still wait for its turn on the board: its content is in the context.
      const content = scope.context.written?.[dep] ?? code.find((c) => c.path === dep)?.content;
      return { path: dep, interface: content !== undefined ? codeInterface(dep, content) : '(not written yet)' };
    });
  },
  designExcerpt: (scope) => {
    const design = scope.board.latest<Design>('Design');
    if (!design) throw new SopworksError('SOP_INVALID', '"designExcerpt" is needed but no Design has been published yet.');
    return designExcerpt(design.payload, currentTask(scope).file, currentTask(scope).dependsOn);
  },
  file: ({ context, board }) => {
    const file = latestCode(board).find((c) => c.path === context.current);
    if (!file) throw new SopworksError('SOP_INVALID', `The file "${context.current ?? '(none)'}" has not been written yet.`);
    return { path: file.path, content: file.content };
  },
  files: ({ board }) => latestCode(board).map((c) => ({ path: c.path, content: c.content })),
  ...changeViews,
};

export const viewNames = (): string[] => [...Object.keys(builtInViews), ...Object.keys(artifactViews)];

export function resolveView(name: string, scope: ViewScope): unknown {
  if (name in scope.context.slots) return scope.context.slots[name];
  const type = artifactViews[name];
  if (type) {
    const message = scope.board.latest(type);
    if (!message) throw new SopworksError('SOP_INVALID', `"${name}" is needed but no ${type} has been published yet.`);
    return message.payload;
  }
  const view = builtInViews[name];
  if (view) return view(scope);
  throw new SopworksError('SOP_INVALID', `"${name}" is neither a view (${viewNames().join(', ')}) nor a slot this role has kept.`);
}
