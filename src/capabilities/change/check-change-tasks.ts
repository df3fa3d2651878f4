/**
 * What is wrong with a change task graph, against the work tree at the base: one task per file, known
 * dependencies, no cycle; a file to modify exists and is text small enough to edit; a file to add does
 * not exist; a file to delete exists; a file to rename exists at `from` and not at its new path.
 */
import fs from 'node:fs/promises';
import { resolveInside } from '../../ground/files/safe-path.ts';
import { validateTaskGraph } from '../../documents/task-graph.ts';
import type { ChangeTaskGraph } from '../../documents/change-schemas.ts';

/** Files larger than this are not edited (their content would not fit a prompt); the map shows their interface. */
export const MAX_EDIT_BYTES = 96_000;

export async function changeTaskProblems(root: string, graph: ChangeTaskGraph): Promise<string[]> {
  // The graph's own shape: validateTaskGraph checks it against a "design" of exactly its files.
  const problems = validateTaskGraph(graph, { files: graph.tasks.map((t) => ({ path: t.file, purpose: t.description })) }).filter(
    (p) => !p.startsWith('missing file'),
  );
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
    if (task.op === 'delete' && !stat) problems.push(`"${task.file}" does not exist: there is nothing to delete`);
    if (task.op === 'rename') {
      const to = await resolveInside(root, task.file)
        .then((p) => fs.lstat(p))
        .catch(() => null);
      if (to) problems.push(`"${task.file}" already exists: a rename cannot overwrite it`);
    }
    if (task.op === 'modify' || task.op === 'rename') {
      if (!stat) problems.push(`"${existing}" does not exist in the repository${task.op === 'modify' ? ': use op add to create it' : ''}`);
      else if (!stat.isFile()) problems.push(`"${existing}" is not a plain file`);
      else if (stat.size > MAX_EDIT_BYTES) problems.push(`"${existing}" is too large to edit (${stat.size} bytes; the limit is ${MAX_EDIT_BYTES})`);
      else if ((await fs.readFile(target)).subarray(0, 8000).includes(0)) problems.push(`"${existing}" is a binary file: it cannot be edited as text`);
    }
  }
  return problems;
}
