/**
 * The criteria a run must meet, each with a stable id and a priority: a PRD's acceptance criteria
 * (AC-1…), a change request's (AC-1…) and what it must keep working (KW-1…). An id is a criterion's
 * place in its list, so a test, a task and the coverage matrix name it the same way in every round.
 * A PRD criterion is P0: it says what the product must do (its requirements' priorities say what to
 * build first). A change's criteria are all P0, what it must keep working too: the repository's own tests
 * name no KW id, so QA proves each by a test named after it that exercises the behaviour kept. Pure.
 */

import type { z } from 'zod';
import type { ChangeRequest } from './change-schemas.ts';
import type { PRD } from './schemas.ts';

export type Priority = 'P0' | 'P1' | 'P2';

export interface Criterion {
  id: string;
  text: string;
  priority: Priority;
}

const numbered = (prefix: string, texts: readonly string[], priority: Priority): Criterion[] =>
  texts.map((text, index) => ({ id: `${prefix}-${index + 1}`, text, priority }));

/** The acceptance criteria of a PRD. */
export const prdCriteria = (prd: Pick<PRD, 'acceptanceCriteria'>): Criterion[] => numbered('AC', prd.acceptanceCriteria, 'P0');

/** A change request's acceptance criteria, then what it must keep working: both proven before the change is done. */
export const changeCriteria = (request: Pick<z.infer<typeof ChangeRequest>, 'acceptanceCriteria' | 'mustKeepWorking'>): Criterion[] => [
  ...numbered('AC', request.acceptanceCriteria, 'P0'),
  ...numbered('KW', request.mustKeepWorking, 'P0'),
];

/** The criteria of whichever document holds them: a change request (it has `mustKeepWorking`) or a PRD. */
export function criteriaOf(document: unknown): Criterion[] {
  const doc = document as Partial<z.infer<typeof ChangeRequest>> & Partial<PRD>;
  if (!Array.isArray(doc?.acceptanceCriteria)) return [];
  return Array.isArray(doc.mustKeepWorking) ? changeCriteria(doc as z.infer<typeof ChangeRequest>) : prdCriteria(doc as PRD);
}
