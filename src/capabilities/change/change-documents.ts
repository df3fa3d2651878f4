/**
 * The change documents as Markdown, committed under the change's folder (docs/changes/<n>-<slug>/).
 * Pure.
 */

import {
  type BaselineTests,
  type ChangeRequest,
  type ChangeTaskGraph,
  commandsList,
  type DesignDelta,
  diagramSections,
  filesList,
  type RepositoryMap,
} from '../../documents/index.ts';
import { bullets, codeSpan, document, fence, item, shellCommand } from '../../ground/markdown.ts';
import { oneLine } from '../../ground/text/index.ts';

export function renderChangeRequest(request: ChangeRequest): string {
  return document(
    `# Change request — ${oneLine(request.title)}`,
    request.summary,
    `## What changes\n\n${bullets(request.changes)}`,
    `## Acceptance criteria\n\n${identified('AC', request.acceptanceCriteria)}`,
    `## What must keep working\n\n${request.mustKeepWorking.length > 0 ? identified('KW', request.mustKeepWorking) : '(nothing named)'}`,
    request.outOfScope.length > 0 ? `## Out of scope\n\n${bullets(request.outOfScope)}` : null,
  );
}

/** Criteria by their ids (AC-n, KW-n: their places in their lists), as the tests that prove them cite them. */
const identified = (prefix: string, criteria: readonly string[]): string => criteria.map((c, i) => item(`${prefix}-${i + 1}: ${c.trim()}`)).join('\n');

export function renderDesignDelta(delta: DesignDelta): string {
  return document(
    '# Design delta',
    delta.summary,
    `## Approach\n\n${delta.approach}`,
    `## Language and commands\n\n${commandsList(delta, delta.buildCommand ? [['Built first with', codeSpan(shellCommand(delta.buildCommand))]] : [])}`,
    `## Files touched\n\n${filesList(delta)}`,
    `## What stays as it is\n\n${delta.unchanged.length > 0 ? bullets(delta.unchanged) : '(nothing named)'}`,
    ...diagramSections(delta),
  );
}

export function renderChangeTasks(graph: ChangeTaskGraph): string {
  return document(
    '# Change tasks',
    graph.tasks
      .map((t) => {
        const file = t.from ? `${codeSpan(t.from)} → ${codeSpan(t.file)}` : codeSpan(t.file);
        const after = t.dependsOn.map(codeSpan).join(', ') || 'nothing';
        return item(`${t.op} ${file} (after ${after}): ${t.description}`);
      })
      .join('\n'),
  );
}

export function renderBaselineTests(report: BaselineTests): string {
  if (!report.ran) return document('# Tests on the base', 'The repository has no tests to run on the base: QA writes the first ones.');
  if (!report.runner.started) {
    return document(
      '# Tests on the base: they could not run',
      report.kind === 'build'
        ? `Before any change, the repository's tests were to run on the base commit after its own build, but the build failed, so the tests did not run and no code was written. Make what the build needs available (declared in the repository), then start the change again.`
        : `Before any change, the repository's tests were to run on the base commit, but the test command could not start, so no code was written. Install what it needs (or declare it in the repository), then start the change again.`,
      `Command: \`${shellCommand(report.command)}\`  \nExit code: ${report.exitCode ?? '(killed)'}`,
      `## Why\n\n${fence(report.runner.line ?? '(no output)')}`,
    );
  }
  const counts = report.counts ? `${report.counts.passed} passed, ${report.counts.failed} failed` : 'the runner printed no counts';
  return document(
    '# Tests on the base',
    `Before any change, the repository's tests ran on the base commit. Failures here were there before the change and are not blamed on it.`,
    `${report.build ? `Built first with: \`${shellCommand(report.build.command)}\` (exit code ${report.build.exitCode ?? '(killed)'})  \n` : ''}Command: \`${shellCommand(report.command)}\`  \nExit code: ${report.exitCode ?? '(killed)'}  \nResult: ${report.passed ? 'PASSED' : 'FAILED'} (${counts})`,
    report.runner.line ? `## Note\n\n${report.runner.line}.` : null,
    report.failures.length > 0 ? `## Failing on the base already\n\n${bullets(report.failures.map((f) => f.name))}` : null,
  );
}

export function renderRepositoryMap(map: RepositoryMap): string {
  return document(
    `# Map of the repository at ${map.base.slice(0, 12)}`,
    `What the company was shown of the repository: its ${map.fileCount} files, and the signatures of the files that matter most to the request (${map.signatureTokens} tokens${map.omitted > 0 ? `; ${map.omitted} more source files not shown` : ''}); it asked to read the files it needed.`,
    `## Files\n\nOne line per folder; \`name{1..9}.ext\` stands for name1.ext … name9.ext; a folder shown as \`folder/: … N files, not listed\` was folded to fit the map's budget.\n\n${fence(map.tree)}`,
    map.tests.commands.length > 0
      ? `## Tests\n\n${map.tests.files} test files; run with ${map.tests.commands.map((c) => `\`${shellCommand(c.argv)}\` (${c.source})`).join(', ')}.`
      : null,
    map.tests.builds.length > 0
      ? `## Build\n\nDeclared build steps: ${map.tests.builds.map((c) => `\`${shellCommand(c.argv)}\` (${c.source})`).join(', ')}.${map.tests.unbuilt.length > 0 ? ` Entry points not in the repository (a build writes them): ${map.tests.unbuilt.map(codeSpan).join(', ')}.` : ''}`
      : null,
    ...map.manifests.map((m) => `## ${m.path}\n\n${fence(m.content)}`),
    ...map.readmes.map((r) => `## ${r.path}\n\n${fence(r.content)}`),
    map.interfaces.length > 0 ? `## Signatures, best first\n\n${map.interfaces.map((i) => `### ${i.path}\n\n${fence(i.interface)}`).join('\n\n')}` : null,
  );
}
