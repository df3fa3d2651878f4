/**
 * The steps of a manual check that ask no model: what QA's declaration may hold (the rule it is told,
 * MANUAL_CLAIM_RULE, kept here), the checks a review must look at again after a fix, and the bug report
 * a rejected check sends to the Engineer who owns its files.
 */
import { z } from 'zod';
import * as S from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { foundTestable, latestFiles } from './manual-state.ts';

/**
 * The declarations that keep the rule: a criterion the matrix shows untested, not found testable by a
 * review, declared once, reading files the run wrote (others are dropped; a check left with none is too).
 */
export function allowedClaims(reply: S.ManualChecks, coverage: S.Coverage, testable: ReadonlySet<string>, files: ReadonlySet<string>): S.ManualChecks {
  const untested = new Set(coverage.criteria.filter((c) => c.status === 'untested').map((c) => c.id));
  const seen = new Set<string>();
  const checks = reply.checks.flatMap((check) => {
    if (!untested.has(check.id) || testable.has(check.id) || seen.has(check.id)) return [];
    seen.add(check.id);
    const artifacts = check.artifacts.filter((path) => files.has(path));
    return artifacts.length > 0 ? [{ ...check, artifacts }] : [];
  });
  return { checks };
}

/** The P0 manual checks of a matrix awaiting a verdict on their files as they are now. */
export const awaitingReview = (coverage: S.Coverage): S.ManualChecks => ({
  checks: coverage.criteria
    .filter((c) => c.priority === 'P0' && c.tests.length === 0 && c.manual !== null && c.manual.verdict === null)
    .map((c) => ({ id: c.id, reason: c.manual!.reason, artifacts: c.manual!.artifacts, lookFor: c.manual!.lookFor })),
});

export const manualClaims = defineStep({
  description:
    "QA's declaration of manual checks (the ManualChecks in `reply`) kept to its rule: only criteria the coverage matrix in `coverage` shows untested and no review found testable, each once, reading files the run wrote — the rest is dropped, and stays untested. No model is asked. The output is a ManualChecks, possibly with no check.",
  params: z.object({ reply: z.string().min(1), coverage: z.string().min(1).default('coverage') }).strict(),
  output: S.ManualChecks,
  names: { views: ['reply', 'coverage'] },
  // The rule QA's declaration is kept to, stated in the prompt of the reply it reads.
  rules: () => [`In \`checks\`, ${S.MANUAL_CLAIM_RULE}.`],
  async run({ params, view }, ports) {
    const coverage = S.Coverage.parse(await view(params.coverage));
    const reply = S.ManualChecks.parse(await view(params.reply));
    return allowedClaims(reply, coverage, foundTestable(ports.board), new Set(latestFiles(ports.board).keys()));
  },
});

export const pendingManualChecks = defineStep({
  description:
    'The P0 manual checks of the coverage matrix in `coverage` awaiting a verdict on their files as they are now (never reviewed, or a file read changed since), to send to the review again. No model is asked. The output is a ManualChecks.',
  params: z.object({ coverage: z.string().min(1).default('coverage') }).strict(),
  output: S.ManualChecks,
  names: { views: ['coverage'] },
  async run({ params, view }) {
    return awaitingReview(S.Coverage.parse(await view(params.coverage)));
  },
});

/** The bug report of the P0 criteria whose manual check was rejected: each file it read, with what the review found missing. */
export function manualBugReport(coverage: S.Coverage): S.BugReport {
  const rejected = coverage.criteria.filter((c) => c.priority === 'P0' && c.status === 'rejected' && c.manual !== null);
  const ids = rejected.map((c) => c.id).join(', ');
  return {
    summary: `No automated test can prove ${ids}, so a review read the files instead, and rejected them: they do not show what the criterion says. Change them so they do; the review reads them again.`,
    failingTests: [],
    files: rejected.flatMap((c) =>
      c.manual!.artifacts.map((path) => ({
        path,
        problem: `${c.id} ("${c.text}"): ${c.manual!.verdictReason ?? 'rejected'} (the review looks for: ${c.manual!.lookFor})`,
      })),
    ),
  };
}

export const manualBug = defineStep({
  description:
    "The BugReport of the P0 criteria of the coverage matrix in `coverage` whose manual check the review rejected: each file the check reads, with the review's reason, for the Engineer who owns it. No model is asked.",
  params: z.object({ coverage: z.string().min(1).default('coverage') }).strict(),
  output: S.BugReport,
  names: { views: ['coverage'] },
  async run({ params, view }) {
    return manualBugReport(S.Coverage.parse(await view(params.coverage)));
  },
});
