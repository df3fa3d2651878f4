import { type OpenQuestion, openIssuesOf, type PRD, type Review } from '../../../documents/index.ts';
import { bullets, document, item } from '../../../ground/markdown.ts';
import { oneLine } from '../../../ground/text/index.ts';

/** A PRD as written, or as posted: with its last review, whose issues are open when it did not approve. */
export function renderPrd(prd: PRD & { review?: Review | null }): string {
  const open = openIssuesOf(prd.review);
  return document(
    `# ${oneLine(prd.projectName)} — Product Requirements`,
    prd.summary,
    `## Goals\n\n${bullets(prd.goals)}`,
    `## User stories\n\n${bullets(prd.userStories.map((s) => `As ${s.asA}, I want ${s.iWant}, so that ${s.soThat.replace(/[.!?]*$/, '')}.`))}`,
    // A list, not a table: a requirement is shown as written, `|` and line breaks and all.
    `## Requirement pool\n\n${prd.requirementPool.map((r) => item(`${oneLine(r.id)} (${r.priority}): ${r.description}`)).join('\n')}`,
    // Each by its id (AC-n, its place in the list): a task names the criteria its file serves, and a test the one it proves.
    `## Acceptance criteria\n\n${prd.acceptanceCriteria.map((c, i) => item(`AC-${i + 1}: ${c.trim()}`)).join('\n')}`,
    `## Open questions\n\n${bullets(prd.openQuestions.map(openQuestionLine))}`,
    // What its last review found when no revision was left: every step that reads the PRD sees it, and the person too.
    open.length > 0
      ? `## Open review issues\n\nThe PRD's last review left these open (its revisions ran out before they were resolved); take them into account:\n\n${bullets(open)}`
      : null,
  );
}

/** A question and the assumption made for it; a board restored from an older run may hold the question alone, as a string. */
const openQuestionLine = (q: OpenQuestion | string): string => (typeof q === 'string' ? q : `${q.question} — assumed meanwhile: ${q.assumption}`);
