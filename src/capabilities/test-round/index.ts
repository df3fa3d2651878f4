/** capabilities/test-round: its public face — what other folders may use of it. */
export { BUILD_NOT_RUN, OWN_SCRIPTS_OFF } from './base-tests.ts';
export { BugReport, TestReport } from './message-types.ts';
export { renderBugReport, renderTestReport } from './render-test-report.ts';
export { rerunNewFailures } from './rerun-new-failures-step.ts';
export { runBaseTests } from './run-base-tests-step.ts';
export { runTests } from './run-tests-step.ts';
export { DEPENDENCIES_NOT_FETCHED, GO_WITHOUT_MODULE } from './runner-start.ts';
export { stopOnSecurityFindings } from './security-stop.ts';
export { readTestCases } from './test-cases/read-test-cases.ts';
export { runTestRound } from './test-round.ts';
export { flakySetAside, ownTestsWrong, recordFailure, repeatedFailure, testsPassed } from './verdicts.ts';
