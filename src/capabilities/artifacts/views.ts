/**
 * The views of the artifacts (src/engine/steps/views.ts says what a view is): the latest PRD, design,
 * task graph, tests and reports, and what a per-file step reads of the current file — its task, its
 * dependencies' interfaces, its part of the design, its content.
 */

import { type Code, codeInterface, type Design, openIssuesOf, type PRD, type TaskGraph, topologicalOrder } from '../../documents/index.ts';
import type { BoardReader } from '../../engine/board/index.ts';
import { latestOf, type View, type ViewScope } from '../../engine/steps/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { excerpt, SHOWN_CHARS } from '../../ground/text/index.ts';
import { designExcerpt } from './design-excerpt.ts';

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

export const task: View = {
  description: "The current file's task from the TaskGraph: `file`, `description`, `dependsOn`.",
  needsCurrent: true,
  read: currentTask,
};

export const dependencies: View = {
  description:
    "The current file's dependencies: each `path` and the `interface` of what is written so far — its exported names with whole signatures (as the current file sees them: a Go file its own package's unexported names too), read with tree-sitter (src/documents/code-interface.ts).",
  needsCurrent: true,
  read: (scope) => {
    const code = latestCode(scope.board);
    return Promise.all(
      currentTask(scope).dependsOn.map(async (dep) => {
        // A file written in this batch may still wait for its turn on the board: its content is in the context.
        const content = scope.context.written?.[dep] ?? code.find((c) => c.path === dep)?.content;
        return { path: dep, interface: content !== undefined ? await codeInterface(dep, content, scope.context.current ?? undefined) : '(not written yet)' };
      }),
    );
  },
};

export const criteria: View = {
  description:
    "The PRD's acceptance criteria the current file serves: `named` (its task lists them by number) and `items` (each `number`, `id` — AC-n — and `text`); when its task names none — a task graph from before tasks did — `named` is false and `items` are all of them.",
  needsCurrent: true,
  read: (scope) => {
    const all = scope.board.latest<PRD>('PRD')?.payload.acceptanceCriteria ?? [];
    const numbers = currentTask(scope).criteria;
    const items = (numbers ?? all.map((_, i) => i + 1)).flatMap((number) => {
      const text = all[number - 1];
      return text === undefined ? [] : [{ number, id: `AC-${number}`, text }];
    });
    return { named: numbers !== undefined, items };
  },
};

export const designExcerptView: View = {
  description:
    "The part of the Design that concerns the current file (src/capabilities/artifacts/design-excerpt.ts): `summary`, `approach`, `language`, `testCommand`, `runCommand`, the file's row (`file`: `path`, `purpose`) and its dependencies' rows (`dependencies`), its `classes`, and the `classDiagram` and `sequenceDiagram` lines about them.",
  needsCurrent: true,
  read: (scope) => {
    const design = scope.board.latest<Design>('Design');
    if (!design) throw new SopworksError('SOP_INVALID', '"designExcerpt" is needed but no Design has been published yet.');
    return designExcerpt(design.payload, currentTask(scope).file, currentTask(scope).dependsOn);
  },
};

export const file: View = {
  description: 'The current file as last committed: `path`, `content`.',
  needsCurrent: true,
  read: ({ context, board }) => {
    const found = latestCode(board).find((c) => c.path === context.current);
    if (!found) throw new SopworksError('SOP_INVALID', `The file "${context.current ?? '(none)'}" has not been written yet.`);
    return { path: found.path, content: found.content };
  },
};

export const files: View = {
  description:
    "Every file committed so far (newest version of each, in task order): `path`, `content`, `openIssues` — its last review's issues when that review did not approve (the file's revisions ran out), else [] — and `inPart`: null, or, for an existing file a change edited that is too long to show whole, `{ lines }` — its content then its start, the parts around the change's edits and its end.",
  read: ({ board }) =>
    latestCode(board).map((c) => {
      const shown = c.changed === null ? null : excerpt(c.content, SHOWN_CHARS, [], c.changed);
      return {
        path: c.path,
        content: shown && !shown.whole ? shown.text : c.content,
        openIssues: openIssuesOf(c.review),
        inPart: shown && !shown.whole ? { lines: c.content.split('\n').length - (c.content.endsWith('\n') ? 1 : 0) } : null,
      };
    }),
};

/** The latest artifact of each type (unless the role holds a slot of the same name). */
export const prd = latestOf('PRD', 'The latest PRD.');
export const design = latestOf('Design', 'The latest Design.');
export const tasks = latestOf('TaskGraph', 'The latest TaskGraph.');
export const tests = latestOf('Tests', 'The latest Tests (`files`).');
export const testReport = latestOf('TestReport', 'The latest TestReport.');
export const bug = latestOf('BugReport', 'The latest BugReport.');
