/** capabilities/coverage: its public face — what other folders may use of it. */
export { buildCoverage } from './build-coverage.ts';
export { coverage } from './coverage-step.ts';
export { allowedClaims, awaitingReview, manualBug, manualBugReport, manualClaims, pendingManualChecks } from './manual-steps.ts';
export { Coverage, ManualChecks, ManualVerdicts } from './message-types.ts';
export { renderCoverage } from './render-coverage.ts';
export { criteriaProven, criteriaRejected, criteriaUntested, hasManualChecks, manualReviewDue } from './verdicts.ts';
export { coverageView, manualReview } from './views.ts';
