/**
 * Task-graph checks and ordering — pure. A graph is valid when it has one task per design file,
 * names only known files, and has no cycle. The order is topological with a stable tie-break
 * (the design's file order), so the same graph always yields the same commit history.
 */
import type { Design, Task, TaskGraph } from './schemas.ts';

/** What validateTaskGraph checks, as a prompt states it: the same rules, said once. */
export const TASK_GRAPH_RULES: readonly string[] = [
  "Exactly one task per file of the design's file list: none missing, none twice, none for a file the list does not have.",
  "A task's dependsOn names only files of the design's list, never the task's own file: those it imports from, and for a file that documents or declares others (README.md, a .d.ts) those it describes.",
  'No dependency cycle: a file never depends, directly or through others, on itself.',
];

export function validateTaskGraph(graph: TaskGraph, design: Pick<Design, 'files'>): string[] {
  const problems: string[] = [];
  const designFiles = new Set(design.files.map((f) => f.path));
  const taskFiles = new Set<string>();

  for (const task of graph.tasks) {
    if (taskFiles.has(task.file)) problems.push(`duplicate task for "${task.file}": give each file exactly one task`);
    taskFiles.add(task.file);
    if (!designFiles.has(task.file)) {
      problems.push(`unknown file "${task.file}": it is not in the design's file list`);
    }
  }
  for (const file of designFiles) {
    if (!taskFiles.has(file)) problems.push(`missing file "${file}": the design lists it but no task writes it`);
  }
  for (const task of graph.tasks) {
    for (const dep of task.dependsOn) {
      if (dep === task.file) problems.push(`"${task.file}" depends on itself`);
      else if (!taskFiles.has(dep)) problems.push(`"${task.file}" depends on unknown file "${dep}"`);
    }
  }
  const cycle = findCycle(graph.tasks);
  if (cycle) problems.push(`dependency cycle: ${cycle.join(' -> ')}`);
  return problems;
}

function findCycle(tasks: Task[]): string[] | null {
  const deps = new Map(tasks.map((t) => [t.file, t.dependsOn.filter((d) => d !== t.file)]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'visiting') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'visiting');
    stack.push(file);
    for (const dep of deps.get(file) ?? []) {
      if (!deps.has(dep)) continue;
      const found = visit(dep);
      if (found) return found;
    }
    stack.pop();
    state.set(file, 'done');
    return null;
  };
  for (const task of tasks) {
    const found = visit(task.file);
    if (found) return found;
  }
  return null;
}

/** Files in dependency order; among files ready at the same time, the earlier in `tasks` goes first. */
export function topologicalOrder(graph: TaskGraph): string[] {
  const remaining = new Map(graph.tasks.map((t) => [t.file, new Set(t.dependsOn)]));
  const order: string[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining.entries()].find(([, deps]) => [...deps].every((d) => !remaining.has(d)));
    if (!ready) throw new Error(`task graph has a cycle among: ${[...remaining.keys()].join(', ')}`);
    order.push(ready[0]);
    remaining.delete(ready[0]);
  }
  return order;
}
