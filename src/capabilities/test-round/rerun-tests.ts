/**
 * The two re-runs that tell a flaky test from a broken one (change/flaky-tests.ts judges them): the
 * round's test command again on the same tree, and the base's tests again where they ran (a copy of the
 * work tree holding the base's files: base-tree.ts). Each is a test round as any other — in the
 * sandbox, bounded in time, after the repository's build when the round had one — whose progress lines say which re-run they are. Nothing of the work tree
 * changes: what the first re-run leaves there is removed, and the copy is removed with what it holds.
 */
import type { Progress } from '../../engine/steps/index.ts';
import { localCommand, readProjectRunners } from '../../host/runners/index.ts';
import type { AcceptLine, SandboxSettings } from '../../host/sandbox/index.ts';
import { removeBaseTree, withBaseTree } from './base-tree.ts';
import { runTestRound, type TestRound } from './test-round.ts';

export interface RerunRequest {
  /** The change's work tree. */
  root: string;
  round: number;
  timeoutMs: number;
  sandbox: SandboxSettings;
  progress(event: Progress): void;
  acceptRecordLine?: AcceptLine;
  holdCommits?: <T>(work: () => Promise<T>) => Promise<T>;
}

/** The round's command again (null: it could not start, said in a progress line), on the tree it ran on. */
export async function rerunRound(request: RerunRequest, run: RunWhat): Promise<TestRound | null> {
  await removeBaseTree(request.root);
  return runIn(request, request.root, run, `round ${request.round} re-run`, true);
}

/** The base's tests again, on the base's files with the install's dependencies (the commit `base`). */
export async function rerunBase(request: RerunRequest, run: RunWhat, base: string): Promise<TestRound | null> {
  return withBaseTree(request.root, base, (dir) => runIn(request, dir, run, 'base re-run', false));
}

/** The test command, and the repository's build before it when the run being repeated had one (build-first.ts). */
export interface RunWhat {
  command: readonly string[];
  build: readonly string[] | null;
}

async function runIn(request: RerunRequest, dir: string, run: RunWhat, label: string, workTree: boolean): Promise<TestRound | null> {
  const runners = await readProjectRunners(dir);
  const local = localCommand(run.command, runners);
  const build = run.build ? localCommand(run.build, runners) : null;
  // The same commands started a moment ago; one that cannot start now is no evidence either way.
  if ('refused' in local || (build && 'refused' in build)) {
    const refused = 'refused' in local ? local.refused : build && 'refused' in build ? build.refused : '';
    request.progress({ kind: 'tests-end', detail: `${label}: not run: ${refused}`, passed: false });
    return null;
  }
  return runTestRound({
    build: run.build && build ? { command: [...run.build], runAs: build.argv } : null,
    round: request.round,
    testCommand: [...run.command],
    runAs: local.argv,
    projectDir: dir,
    timeoutMs: request.timeoutMs,
    sandbox: request.sandbox,
    progress: (event) => request.progress({ ...event, detail: event.detail.replace(/^round \d+:/, `${label}:`) }),
    // The work tree is the user's branch: the run's own commits wait, and what the runner leaves is removed.
    ...(workTree && request.acceptRecordLine ? { acceptRecordLine: request.acceptRecordLine } : {}),
    ...(workTree && request.holdCommits ? { holdCommits: request.holdCommits } : {}),
    removeLeftovers: workTree,
  });
}
