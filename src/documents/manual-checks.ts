/**
 * Criteria no automated test can prove (a README's content, an output "readable"): QA declares each one
 * manual — why no test can prove it, the files to read, what to look for — and a review by the Product
 * Manager, who wrote the criteria, reads those files and accepts it, rejects it (back to the Engineer who
 * owns the file), or finds it testable after all (back to QA for its test). Every field is required (strict
 * structured output): what may be absent is an empty list. The rules each check keeps are the texts below,
 * stated in the prompts of the replies they check. Pure.
 */
import { z } from 'zod';
import { RelativePath } from '../ground/files/index.ts';
import { CriterionId } from './test-citations.ts';

const text = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

/** What QA may declare manual, said in its prompt and kept by the step that reads its reply (manual-claims in capabilities/coverage/). */
export const MANUAL_CLAIM_RULE =
  'declare manual only a criterion marked untested in the coverage matrix below that no automated test can prove, never one a review found testable; name as its artifacts only files of the project listed below (at most 5); a declaration that breaks this is dropped and the criterion stays untested';

/** What a review of manual checks answers, said in its prompt and kept by ManualVerdicts' schema. */
export const MANUAL_VERDICT_RULE =
  'one verdict for each criterion listed, by its id: accepted when the files show what the criterion says, rejected when they do not (say what is missing, for the Engineer who fixes the file), testable when an automated test could prove it (say how, for QA who then writes that test)';

export const ManualCheck = z.object({
  id: CriterionId.describe('the id of an untested criterion (AC-n, KW-n) that no automated test can prove'),
  reason: text('reason').describe('why no automated test can prove it'),
  artifacts: z.array(RelativePath).min(1).max(5).describe('the files of the project a reviewer reads to judge it, such as README.md'),
  lookFor: text('lookFor').describe('what the reviewer must find in those files for the criterion to hold'),
});

/** QA's declaration (and, after a fix, its request for another look): the criteria a person's reading must check. */
export const ManualChecks = z
  .object({ checks: z.array(ManualCheck).describe('[] when every untested criterion can be proven by an automated test') })
  .describe(MANUAL_CLAIM_RULE);

export const ManualVerdictKind = z.enum(['accepted', 'rejected', 'testable']);

export const ManualVerdict = z.object({
  id: CriterionId,
  verdict: ManualVerdictKind,
  reason: text('reason').describe('what in the files decided it; for rejected, what must change; for testable, how a test could prove it'),
});

/** The review's answer: a verdict on each manual check it was shown. */
export const ManualVerdicts = z
  .object({ verdicts: z.array(ManualVerdict).min(1) })
  .superRefine((reply, ctx) => {
    const ids = reply.verdicts.map((v) => v.id);
    const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (twice.length > 0)
      ctx.addIssue({ code: 'custom', path: ['verdicts'], message: `${MANUAL_VERDICT_RULE}: ${[...new Set(twice)].join(', ')} answered twice` });
  })
  .describe(MANUAL_VERDICT_RULE);

export type ManualCheck = z.infer<typeof ManualCheck>;
export type ManualChecks = z.infer<typeof ManualChecks>;
export type ManualVerdictKind = z.infer<typeof ManualVerdictKind>;
export type ManualVerdict = z.infer<typeof ManualVerdict>;
export type ManualVerdicts = z.infer<typeof ManualVerdicts>;
