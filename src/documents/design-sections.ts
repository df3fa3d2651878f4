/**
 * The parts of a Design's Markdown that a new project's design (docs/design.md) and a change's design
 * delta render alike: the language and commands, the files, and the two diagrams. Lists, not tables: a
 * model's text is shown as written (src/ground/markdown.ts). Pure.
 */
import { codeSpan, fence, item, shellCommand } from '../ground/markdown.ts';
import type { Design } from './schemas.ts';

/** The language, run and test commands, then `more` lines (`[label, markdown]`). */
export function commandsList(design: Design, more: string[][] = []): string {
  return [
    ['Language', design.language],
    ['Run', design.runCommand ? codeSpan(shellCommand(design.runCommand)) : '(library: nothing to run)'],
    ['Test', codeSpan(shellCommand(design.testCommand))],
    ...more,
  ]
    .map(([label, value]) => item(`${label}: ${value}`))
    .join('\n');
}

export function filesList(design: Design): string {
  return design.files.map((f) => item(`${codeSpan(f.path)}${f.executable ? ' (executable)' : ''}: ${f.purpose}`)).join('\n');
}

/** The class diagram and the main flow, as Mermaid sections. */
export function diagramSections(design: Design): string[] {
  return [`## Data structures and interfaces\n\n${fence(design.classDiagram, 'mermaid')}`, `## Main flow\n\n${fence(design.sequenceDiagram, 'mermaid')}`];
}
