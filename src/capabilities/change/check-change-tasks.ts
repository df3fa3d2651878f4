/**
 * What is wrong with a change task graph, against the work tree at the base: one task per file, known
 * dependencies, no cycle; a file to modify exists and is text small enough to edit; a file to add does
 * not exist; a file to delete exists; a file to rename exists at `from` and not at its new path. A
 * path that does not exist is answered with the repository's nearest one, when one is near.
 */
import fs from 'node:fs/promises';
import { type ChangeTaskGraph, validateTaskGraph } from '../../documents/index.ts';
import { resolveInside } from '../../ground/files/index.ts';
import { nearestPath, trackedFiles } from './nearest-path.ts';

/**
 * Files larger than this are not edited. A file longer than the edit's prompt shows whole (SHOWN_CHARS)
 * is shown to its editor in part (edit-step.ts); this bounds what QA's prompt then shows of it whole.
 */
export const MAX_EDIT_BYTES = 256_000;

/** What changeTaskProblems checks, as a prompt states it: the same rules, said once. */
export const CHANGE_TASK_RULES: readonly string[] = [
  "One task per file, none twice; a task's dependsOn names only files of other tasks, never its own; no dependency cycle.",
  `op modify: the file exists in the repository, is text, and is at most ${MAX_EDIT_BYTES} bytes; op add: the file does not exist yet; op delete: the file exists.`,
  'op rename: `from` is the path the file has now (it exists) and `file` the new path (it does not exist yet); `from` is null for every other op.',
];

export async function changeTaskProblems(root: string, graph: ChangeTaskGraph): Promise<string[]> {
  // The graph's own shape: validateTaskGraph checks it against a "design" of exactly its files.
  const problems = validateTaskGraph(graph, { files: graph.tasks.map((t) => ({ path: t.file, purpose: t.description })) }).filter(
    (p) => !p.startsWith('missing file'),
  );
  let files: Promise<string[]> | null = null;
  const meant = async (missing: string): Promise<string> => {
    const near = nearestPath(missing, await (files ??= trackedFiles(root)));
    return near ? `; did you mean "${near}"?` : '';
  };
  for (const task of graph.tasks) {
    if (task.op === 'rename' && task.from === null) problems.push(`"${task.file}": a rename needs \`from\`, the path it has now`);
    if (task.op !== 'rename' && task.from !== null) problems.push(`"${task.file}": \`from\` is for renames only; give null`);
    const existing = task.op === 'rename' && task.from ? task.from : task.file;
    const target = await resolveInside(root, existing).catch((error: Error) => error);
    if (target instanceof Error) {
      problems.push(`"${existing}": ${target.message}`);
      continue;
    }
    const stat = await fs.lstat(target).catch(() => null);
    if (task.op === 'add' && stat) problems.push(`"${task.file}" already exists: use op modify to change it`);
    if (task.op === 'delete' && !stat) problems.push(`"${task.file}" does not exist: there is nothing to delete${await meant(task.file)}`);
    if (task.op === 'rename') {
      const to = await resolveInside(root, task.file)
        .then((p) => fs.lstat(p))
        .catch(() => null);
      if (to) problems.push(`"${task.file}" already exists: a rename cannot overwrite it`);
    }
    if (task.op === 'modify' || task.op === 'rename') {
      if (!stat) problems.push(missingFile(existing, task.op, await meant(existing)));
      else if (!stat.isFile()) problems.push(`"${existing}" is not a plain file`);
      else if (stat.size > MAX_EDIT_BYTES) problems.push(`"${existing}" is too large to edit (${stat.size} bytes; the limit is ${MAX_EDIT_BYTES})`);
      else if ((await fs.readFile(target)).subarray(0, 8000).includes(0)) problems.push(`"${existing}" is a binary file: it cannot be edited as text`);
    }
  }
  return problems;
}

/** A file to modify or rename that is not there: the nearest existing path, else (to modify) how to create it. */
function missingFile(file: string, op: 'modify' | 'rename', near: string): string {
  if (near) return `"${file}" does not exist in the repository${near}${op === 'modify' ? ' (op add is for a file that does not exist yet)' : ''}`;
  return `"${file}" does not exist in the repository${op === 'modify' ? ': use op add to create it' : ''}`;
}
