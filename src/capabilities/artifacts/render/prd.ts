import type { PRD } from '../../../documents/index.ts';
import { bullets, document, table } from '../../../ground/markdown.ts';
import { oneLine } from '../../../ground/text/index.ts';

export function renderPrd(prd: PRD): string {
  return document(
    `# ${oneLine(prd.projectName)} — Product Requirements`,
    prd.summary,
    `## Goals\n\n${bullets(prd.goals)}`,
    `## User stories\n\n${bullets(prd.userStories.map((s) => `As ${s.asA}, I want ${s.iWant}, so that ${s.soThat}.`))}`,
    `## Requirement pool\n\n${table(
      ['ID', 'Priority', 'Requirement'],
      prd.requirementPool.map((r) => [r.id, r.priority, r.description]),
    )}`,
    `## Acceptance criteria\n\n${bullets(prd.acceptanceCriteria)}`,
    `## Open questions\n\n${bullets(prd.openQuestions)}`,
  );
}
