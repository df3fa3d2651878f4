/** capabilities/change: its public face — what other folders may use of it. */

export { renderBaselineTests, renderChangeRequest } from './change-documents.ts';
export { changeEndLines } from './change-end.ts';
export { changeMessageTypes } from './change-message-types.ts';
export { baseRunnerStarted, noNewFailures, queueChangeTasks, taskOp } from './change-references.ts';
export { ChangeRecord, changeSummary } from './change-summary.ts';
export * from './change-views.ts';
export { checkChangeTasks } from './check-change-tasks-step.ts';
export { checkRepository } from './check-repository.ts';
export { checkTestCommand } from './check-test-command-step.ts';
export { checkToolchains } from './check-toolchains.ts';
export { compareWithBase } from './compare-with-base-step.ts';
export { edit } from './edit-step.ts';
export { listFiles } from './map/list-files.ts';
export { cacheDir } from './map/tag-cache.ts';
export { mapRepository } from './map-repository-step.ts';
export { trackedFiles } from './nearest-path.ts';
export { nearestTests } from './nearest-tests-step.ts';
export { openWorktree } from './open-worktree.ts';
export { read } from './read-step.ts';
export { repositoryTampering } from './repository-tampering.ts';
export { squashBranch } from './squash-branch.ts';
