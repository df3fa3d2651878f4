/**
 * What is wrong with a change task graph, against the work tree at the base: one task per file, known
 * dependencies, no cycle; a file to modify exists and is text small enough to edit; a file to add does
 * not exist. Deleting and renaming files are not carried out by the shipped SOPs yet: such a task is
 * refused with that reason (the Architect re-plans, e.g. as a modification).
 */
import fs from 'node:fs/promises';
import { resolveInside } from '../workspace/safe-path.ts';
import { validateTaskGraph } from '../artifacts/task-graph.ts';
import type { ChangeTaskGraph } from './change-schemas.ts';

/** Files larger than this are not edited (their content would not fit a prompt); the map shows their interface. */
export const MAX_EDIT_BYTES = 96_000;

export async function changeTaskProblems(root: string, graph: ChangeTaskGraph): Promise<string[]> {
  // The graph's own shape: validateTaskGraph checks it against a "design" of exactly its files.
  const problems = validateTaskGraph(graph, { files: graph.tasks.map((t) => ({ path: t.file, purpose: t.description })) }).filter((p) => !p.startsWith('missing file'));
  for (const task of graph.tasks) {
    if (task.op === 'delete' || task.op === 'rename') {
      problems.push(`"${task.file}": ${task.op} is not carried out by this company's SOPs; change the file's content instead (op modify), or leave it`);
      continue;
    }
    const target = await resolveInside(root, task.file).catch((error: Error) => error);
    if (target instanceof Error) {
      problems.push(`"${task.file}": ${target.message}`);
      continue;
    }
    const stat = await fs.lstat(target).catch(() => null);
    if (task.op === 'add' && stat) problems.push(`"${task.file}" already exists: use op modify to change it`);
    if (task.op === 'modify') {
      if (!stat) problems.push(`"${task.file}" does not exist in the repository: use op add to create it`);
      else if (!stat.isFile()) problems.push(`"${task.file}" is not a plain file`);
      else if (stat.size > MAX_EDIT_BYTES) problems.push(`"${task.file}" is too large to edit (${stat.size} bytes; the limit is ${MAX_EDIT_BYTES})`);
      else if ((await fs.readFile(target)).subarray(0, 8000).includes(0)) problems.push(`"${task.file}" is a binary file: it cannot be edited as text`);
    }
  }
  return problems;
}
