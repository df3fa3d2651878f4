/**
 * The parts of a Design's Markdown that a new project's design (docs/design.md) and a change's design
 * delta render alike: the language and commands, the files, and the two diagrams. Pure.
 */
import { shellCommand, table } from '../ground/markdown.ts';
import type { Design } from './schemas.ts';

/** The language, run and test commands, then `more` rows. */
export function commandsTable(design: Design, more: string[][] = []): string {
  return table(
    ['What', 'Value'],
    [
      ['Language', design.language],
      ['Run', design.runCommand ? `\`${shellCommand(design.runCommand)}\`` : '(library: nothing to run)'],
      ['Test', `\`${shellCommand(design.testCommand)}\``],
      ...more,
    ],
  );
}

export function filesTable(design: Design): string {
  return table(
    ['Path', 'Purpose'],
    design.files.map((f) => [`\`${f.path}\``, f.purpose]),
  );
}

/** The class diagram and the main flow, as Mermaid sections. */
export function diagramSections(design: Design): string[] {
  return [
    `## Data structures and interfaces\n\n\`\`\`mermaid\n${design.classDiagram}\n\`\`\``,
    `## Main flow\n\n\`\`\`mermaid\n${design.sequenceDiagram}\n\`\`\``,
  ];
}
