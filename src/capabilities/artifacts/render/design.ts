import type { Design } from '../../../documents/schemas.ts';
import { document, shellCommand, table } from '../../../ground/markdown.ts';

export function renderDesign(design: Design, projectName: string): string {
  return document(
    `# ${projectName} — System design`,
    design.summary,
    `## Approach\n\n${design.approach}`,
    `## Language and commands\n\n${table(
      ['What', 'Value'],
      [
        ['Language', design.language],
        ['Run', design.runCommand ? `\`${shellCommand(design.runCommand)}\`` : '(library: nothing to run)'],
        ['Test', `\`${shellCommand(design.testCommand)}\``],
        ...(design.smokeCommand ? [['Smoke run', `\`${shellCommand(design.smokeCommand)}\``]] : []),
      ],
    )}`,
    ...(design.dependencies?.length
      ? [
          `## Dependencies\n\n${table(
            ['Package', 'Range', 'Kind'],
            design.dependencies.map((d) => [`\`${d.name}\``, `\`${d.range}\``, d.kind]),
          )}`,
        ]
      : []),
    `## Files\n\n${table(
      ['Path', 'Purpose'],
      design.files.map((f) => [`\`${f.path}\``, f.purpose]),
    )}`,
    `## Data structures and interfaces\n\n\`\`\`mermaid\n${design.classDiagram}\n\`\`\``,
    `## Main flow\n\n\`\`\`mermaid\n${design.sequenceDiagram}\n\`\`\``,
  );
}
