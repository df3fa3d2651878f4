import type { Design } from '../../../documents/index.ts';
import { document, shellCommand, table } from '../../../ground/markdown.ts';
import { oneLine } from '../../../ground/text/index.ts';
import { commandsTable, diagramSections, filesTable } from '../../../documents/index.ts';

export function renderDesign(design: Design, projectName: string): string {
  return document(
    `# ${oneLine(projectName)} — System design`,
    design.summary,
    `## Approach\n\n${design.approach}`,
    `## Language and commands\n\n${commandsTable(design, design.smokeCommand ? [['Smoke run', `\`${shellCommand(design.smokeCommand)}\``]] : [])}`,
    ...(design.dependencies?.length
      ? [
          `## Dependencies\n\n${table(
            ['Package', 'Range', 'Kind'],
            design.dependencies.map((d) => [`\`${d.name}\``, `\`${d.range}\``, d.kind]),
          )}`,
        ]
      : []),
    `## Files\n\n${filesTable(design)}`,
    ...diagramSections(design),
  );
}
