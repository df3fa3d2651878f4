/** engine/run: its public face — what other folders may use of it. */
export { RUN_OUTCOMES, type RunConclusion, type RunOutcome } from './decide-outcome.ts';
export { FileRunStore } from './file-run-store.ts';
export { type CompanyDefinition, loadCompanyDefinition } from './load-company.ts';
export { MemoryRunStore } from './memory-run-store.ts';
export { type CheckedProjectDir, checkProjectDir, makeWayForProject } from './prepare-project.ts';
export { publishOnce } from './publish-once.ts';
export {
  adviceOfBound,
  type ContinuationAdvice,
  checkContinuable,
  checkHintApplies,
  insteadFor,
  type NotContinuable,
  startAfresh,
  whyNotContinuable,
} from './run-continuation.ts';
export type { EarlierUsage, LoopEvent } from './run-events.ts';
export { lockOwner, lockOwnerNow } from './run-lock.ts';
export { type CommitFault, type RunApprovals, RunLoop, type SharedPorts, type StopSignals } from './run-loop.ts';
export type { OpenedLog, RunLease, RunStore } from './run-store.ts';
export { STATE_DIR } from './state-dir.ts';
export { checkClarify, checkUntil } from './until-check.ts';
export { WorkInFlight } from './work-in-flight.ts';
