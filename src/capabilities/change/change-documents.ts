/**
 * The change documents as Markdown, committed under the change's folder (docs/changes/<n>-<slug>/).
 * Pure.
 */
import { bullets, document, shellCommand, table } from '../../ground/markdown.ts';
import type { RepositoryMap, BaselineTests, ChangeRequest, ChangeTaskGraph, DesignDelta } from '../../documents/change-schemas.ts';

export function renderChangeRequest(request: ChangeRequest): string {
  return document(
    `# Change request — ${request.title}`,
    request.summary,
    `## What changes\n\n${bullets(request.changes)}`,
    `## Acceptance criteria\n\n${bullets(request.acceptanceCriteria)}`,
    `## What must keep working\n\n${request.mustKeepWorking.length > 0 ? bullets(request.mustKeepWorking) : '(nothing named)'}`,
    request.outOfScope.length > 0 ? `## Out of scope\n\n${bullets(request.outOfScope)}` : null,
  );
}

export function renderDesignDelta(delta: DesignDelta): string {
  return document(
    '# Design delta',
    delta.summary,
    `## Approach\n\n${delta.approach}`,
    `## Language and commands\n\n${table(
      ['What', 'Value'],
      [
        ['Language', delta.language],
        ['Run', delta.runCommand ? `\`${shellCommand(delta.runCommand)}\`` : '(library: nothing to run)'],
        ['Test', `\`${shellCommand(delta.testCommand)}\``],
      ],
    )}`,
    `## Files touched\n\n${table(
      ['Path', 'Purpose'],
      delta.files.map((f) => [`\`${f.path}\``, f.purpose]),
    )}`,
    `## What stays as it is\n\n${delta.unchanged.length > 0 ? bullets(delta.unchanged) : '(nothing named)'}`,
    `## Data structures and interfaces\n\n\`\`\`mermaid\n${delta.classDiagram}\n\`\`\``,
    `## Main flow\n\n\`\`\`mermaid\n${delta.sequenceDiagram}\n\`\`\``,
  );
}

export function renderChangeTasks(graph: ChangeTaskGraph): string {
  return document(
    '# Change tasks',
    table(
      ['Op', 'File', 'Depends on', 'Description'],
      graph.tasks.map((t) => [
        t.op,
        t.from ? `\`${t.from}\` → \`${t.file}\`` : `\`${t.file}\``,
        t.dependsOn.map((d) => `\`${d}\``).join(', ') || '—',
        t.description,
      ]),
    ),
  );
}

export function renderBaselineTests(report: BaselineTests): string {
  if (!report.ran) return document('# Tests on the base', 'The repository has no tests to run on the base: QA writes the first ones.');
  const counts = report.counts ? `${report.counts.passed} passed, ${report.counts.failed} failed` : 'the runner printed no counts';
  return document(
    '# Tests on the base',
    `Before any change, the repository's tests ran on the base commit. Failures here were there before the change and are not blamed on it.`,
    `Command: \`${shellCommand(report.command)}\`  \nExit code: ${report.exitCode ?? '(killed)'}  \nResult: ${report.passed ? 'PASSED' : 'FAILED'} (${counts})`,
    report.failures.length > 0 ? `## Failing on the base already\n\n${bullets(report.failures.map((f) => f.name))}` : null,
  );
}

export function renderRepositoryMap(map: RepositoryMap): string {
  const fence = (text: string) => `\`\`\`\n${text.trimEnd()}\n\`\`\``;
  return document(
    `# Map of the repository at ${map.base.slice(0, 12)}`,
    `What the company was shown of the repository (bounded: ${map.fileCount} files${map.omitted > 0 ? `, ${map.omitted} source interfaces left out` : ''}); it asked to read the files it needed.`,
    `## Files\n\n${fence(map.tree)}`,
    ...map.manifests.map((m) => `## ${m.path}\n\n${fence(m.content)}`),
    ...map.readmes.map((r) => `## ${r.path}\n\n${fence(r.content)}`),
    map.interfaces.length > 0 ? `## Interfaces\n\n${map.interfaces.map((i) => `### ${i.path}\n\n${fence(i.interface)}`).join('\n\n')}` : null,
  );
}
