/** apps/eval: its public face — what other folders may use of it. */

export { changedCode } from './changed-code.ts';
export { robustnessTable } from './render-robustness.ts';
export { aggregateTable, compareTables, renderText, specTable } from './render-table.ts';
export { runFacts } from './run-facts.ts';
export { planRuns } from './run-plan.ts';
export { runSpec, runState, type SpecRunHooks } from './run-spec.ts';
export { resultsFiles, runSuite, type SpecRunner } from './run-suite.ts';
export { SuiteResults } from './spec-result.ts';
export { loadSuite } from './suite-file.ts';
