import { commandsList, type Design, diagramSections, filesList } from '../../../documents/index.ts';
import { codeSpan, document, item, shellCommand } from '../../../ground/markdown.ts';
import { oneLine } from '../../../ground/text/index.ts';

export function renderDesign(design: Design, projectName: string): string {
  return document(
    `# ${oneLine(projectName)} — System design`,
    design.summary,
    `## Approach\n\n${design.approach}`,
    `## Language and commands\n\n${commandsList(design, design.smokeCommand ? [['Smoke run', codeSpan(shellCommand(design.smokeCommand))]] : [])}`,
    ...(design.dependencies?.length
      ? [`## Dependencies\n\n${design.dependencies.map((d) => item(`${codeSpan(d.name)} ${codeSpan(d.range)} (${d.kind})`)).join('\n')}`]
      : []),
    `## Files\n\n${filesList(design)}`,
    ...diagramSections(design),
  );
}
