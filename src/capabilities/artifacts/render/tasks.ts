import { type TaskGraph, topologicalOrder } from '../../../documents/index.ts';
import { codeSpan, document, item } from '../../../ground/markdown.ts';

const nodeId = (index: number): string => `t${index + 1}`;

export function renderTasks(graph: TaskGraph): string {
  const order = topologicalOrder(graph);
  const byFile = new Map(graph.tasks.map((t) => [t.file, t]));
  const index = new Map(order.map((file, i) => [file, i]));
  const edges = order.flatMap((file) => byFile.get(file)!.dependsOn.map((dep) => `  ${nodeId(index.get(dep)!)} --> ${nodeId(index.get(file)!)}`));
  const nodes = order.map((file, i) => `  ${nodeId(i)}["${file}"]`);
  return document(
    '# Tasks',
    'One task per file, in the order they are written (a file comes after the files it depends on).',
    order
      .map((file, i) => {
        const task = byFile.get(file)!;
        const after = task.dependsOn.map(codeSpan).join(', ') || 'nothing';
        return item(`${codeSpan(file)} (after ${after}): ${task.description}`, `${i + 1}.`);
      })
      .join('\n'),
    `## Dependency graph\n\n\`\`\`mermaid\nflowchart LR\n${[...nodes, ...edges].join('\n')}\n\`\`\``,
  );
}
