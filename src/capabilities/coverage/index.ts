/** capabilities/coverage: its public face — what other folders may use of it. */
export { buildCoverage } from './build-coverage.ts';
export { coverage } from './coverage-step.ts';
export { Coverage } from './message-types.ts';
export { renderCoverage } from './render-coverage.ts';
export { criteriaProven, criteriaUntested } from './verdicts.ts';
export { coverageView } from './views.ts';
