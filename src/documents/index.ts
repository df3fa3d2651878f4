/** documents: its public face — what other folders may use of it. */
export * from './change-schemas.ts';
export { codeInterface } from './code-interface.ts';
export { describePlaceholders, isSourceFile, type Placeholder, placeholderRule, placeholdersIn } from './completeness.ts';
export {
  Coverage,
  type CoverageSummary,
  CriterionCoverage,
  CriterionStatus,
  coverageLine,
  coverageSummary,
  describeCoverage,
  describeManual,
  ManualCheckState,
} from './coverage.ts';
export { type Criterion, changeCriteria, criteriaOf, prdCriteria } from './criteria.ts';
export { commandsList, diagramSections, filesList } from './design-sections.ts';
export { documentsCommitted, documentsDir } from './documents-dir.ts';
export type { EditsReply, SearchReplace } from './edits.ts';
export {
  MANUAL_CLAIM_RULE,
  MANUAL_VERDICT_RULE,
  ManualCheck,
  ManualChecks,
  ManualVerdict,
  ManualVerdictKind,
  ManualVerdicts,
} from './manual-checks.ts';
export * from './schemas.ts';
export { isPlaceholder, smokeCommandOf } from './smoke-command.ts';
export { TASK_GRAPH_RULES, topologicalOrder, validateTaskGraph } from './task-graph.ts';
export { CRITERION_ID, CriterionId, citedCriteria, TEST_LISTING_RULE, TestCase } from './test-citations.ts';
