/**
 * The messages of the run itself, whatever the company: the client's Requirement that starts it and the
 * Outcome a role posts to end it. Every other message type comes with the vocabulary.
 */
import { z } from 'zod';
import { defineMessage } from './message-type.ts';

const text = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

/**
 * What the run was asked: a new project's `spec`, or a change run's `request` (sopworks change) — each
 * under its own name, down to the steps that read it.
 */
export const Requirement = z
  .object({
    spec: text('the spec').optional(),
    request: text('the change request').optional(),
    project: text('the project name'),
    /**
     * Where the run's own documents go (its plans and reports): `commit`, as a new project's docs/; or
     * `run-folder`, the run's `.sopworks/documents/` only, never a commit — a change's branch holds the
     * change and nothing of how it was made (`sopworks change`, unless --commit-documents). Absent: commit.
     */
    documents: z.enum(['commit', 'run-folder']).optional(),
  })
  // One object with a refinement, not a union: a missing or empty field is then named (`project: …`).
  .refine((asked) => (asked.spec === undefined) !== (asked.request === undefined), {
    message: 'needs exactly one of spec (a new project) and request (a change run)',
  });
export type Requirement = z.infer<typeof Requirement>;

export const Outcome = z.object({
  /**
   * `criteria-unmet`: the product was delivered, but a P0 acceptance criterion has no passing test (or
   * accepted check) and the SOP's rounds to get one are spent — the reason names them. Not a failure of
   * the company: the spec is not met.
   */
  outcome: z.enum(['done', 'failed', 'criteria-unmet']),
  reason: text('reason'),
});
export type Outcome = z.infer<typeof Outcome>;

export const runMessages = {
  Requirement: defineMessage({
    schema: Requirement,
    description: "The client's spec (`spec`), or a change run's request (`request`), and the `project`; posted by the company when a run starts.",
  }),
  Outcome: defineMessage({
    schema: Outcome,
    description: 'Ends the run: `outcome` done, failed or criteria-unmet, and a `reason`. Read by the company itself.',
  }),
};
