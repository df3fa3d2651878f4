/**
 * Finishing a run once its outcome is decided: the last commits, closing the logs, the run's record
 * (run.json) with its usage, and the recorded scenario when asked for. A commit that fails after the
 * last step still fails the run.
 */

import { ChangeRecord, squashBranch } from '../capabilities/change/index.ts';
import { type UsageMeter, usageFromExchanges, writeRecordedScenario } from '../capabilities/model/index.ts';
import { runFigures } from '../capabilities/project/index.ts';
import type { ChangeRequest, TestReport } from '../documents/index.ts';
import type { Message } from '../engine/board/index.ts';
import { type RunConclusion, STATE_DIR } from '../engine/run/index.ts';
import { describeError } from '../ground/errors.ts';
import type { OpenRun } from './open-run.ts';
import { writeRunFolderDocuments } from './run-folder-documents.ts';
import type { RunOutcome, RunRecord } from './run-record.ts';

export interface RunResult {
  outcome: RunOutcome;
  reason: string;
  /** When a run the endpoint's limit paused can go on (ISO 8601). */
  resumeAt?: string;
  projectDir: string;
  /** Usage of the whole run, across restarts (from the exchange log). */
  usage: UsageMeter;
  messages: readonly Message[];
  lastTestReport: TestReport | null;
  /** The run's documents kept out of its commits, relative to its folder (`.sopworks/documents/…`). */
  documents: string[];
  /** This process's time on the run. */
  wallMs: number;
  /** The whole run's: its earlier processes' too (run.json's wallMs), as its usage is. */
  runWallMs: number;
}

/** `started`: when this process took up the run (Date.now()); `recordTo`: where to write the scenario, if anywhere. */
export async function finishRun(run: OpenRun, decided: RunConclusion, started: number, recordTo: string | null): Promise<RunResult> {
  const { record, materializer, workspace, board, exchanges, store } = run;
  let conclusion = decided;
  // The last commits, closing the logs and writing the run's record go on together (docs/performance.md).
  // A post still under way when the outcome was decided (a step finishing after Ctrl-C) is committed too:
  // the materializer listens until the board is closed, so resume never finds a commit "a crash" prevented.
  const boardClosed = board.close();
  // Its failure is taken at once and recorded below, never left meanwhile to end the process as unhandled
  // (a queued run that lost its lease is refused the index's update, say, while its logs close).
  const repository = boardClosed
    .then(() => {
      materializer.stop();
      return materializer.settled();
    })
    .then(() => workspace.finish())
    .then(
      () => null,
      (error: unknown) => ({ error }),
    );
  await Promise.all([store.roles.settled(), boardClosed, exchanges.close()]);
  const allExchanges = exchanges.records();
  const usage = usageFromExchanges(allExchanges);
  const scenario = awaitedLater(recordTo ? writeRecordedScenario(recordTo, { spec: record.spec, name: record.project }, allExchanges) : undefined);
  const { resumeAt: _earlier, ...kept } = record;
  const finished = (wallMs: number): RunRecord => ({
    ...kept,
    finishedAt: new Date().toISOString(),
    outcome: conclusion.outcome,
    reason: conclusion.reason,
    ...(conclusion.resumeAt ? { resumeAt: conclusion.resumeAt } : {}),
    wallMs: (record.wallMs ?? 0) + wallMs,
    usage: {
      total: usage.total(),
      byRole: Object.fromEntries(usage.byRole()),
      byAction: Object.fromEntries(usage.byAction()),
      byModel: Object.fromEntries(usage.byModel()),
    },
    figures: runFigures(board.list()),
  });
  const written = awaitedLater(store.writeRecord(finished(Date.now() - started)));
  const repositoryFault = await repository;
  if (repositoryFault) run.commitFault.first ??= `the repository could not be brought up to date: ${describeError(repositoryFault.error)}`;
  // A change asked to be one commit (--squash) becomes one, once it is done.
  if (conclusion.outcome === 'done' && !run.commitFault.first) await squashIfAsked(record, board, workspace.root);
  // What the run keeps out of its commits (a change's documents) is where a person finds it.
  const documents = await writeRunFolderDocuments(board, workspace.root).catch((error: unknown) => {
    run.commitFault.first ??= `the run's documents could not be written to ${STATE_DIR}/documents/: ${describeError(error)}`;
    return [];
  });
  const wallMs = Date.now() - started;
  await written();
  // A commit that failed after the last step (the last artifact's) still fails the run: recorded again.
  if (run.commitFault.first && conclusion.outcome !== 'failed') {
    conclusion = { outcome: 'failed', reason: run.commitFault.first };
    await store.writeRecord(finished(wallMs));
  }
  await scenario();
  return {
    outcome: conclusion.outcome,
    reason: conclusion.reason,
    ...(conclusion.resumeAt ? { resumeAt: conclusion.resumeAt } : {}),
    projectDir: workspace.root,
    usage,
    messages: board.list(),
    lastTestReport: lastTestRound(board.list()),
    documents,
    wallMs,
    runWallMs: (record.wallMs ?? 0) + wallMs,
  };
}

async function squashIfAsked(record: RunRecord, board: OpenRun['board'], worktree: string): Promise<void> {
  const change = ChangeRecord.safeParse(record.change);
  if (!change.success || !change.data.squash) return;
  const title = board.latest<ChangeRequest>('ChangeRequest')?.payload.title ?? record.spec;
  await squashBranch(worktree, change.data.base, change.data.branch, title);
}

/** A promise to wait for later: its failure is thrown then, not reported meanwhile as unhandled. */
function awaitedLater(promise: Promise<void> | undefined): () => Promise<void> {
  const settled = (promise ?? Promise.resolve()).then(
    () => null,
    (error: unknown) => ({ error }),
  );
  return async () => {
    const failure = await settled;
    if (failure) throw failure.error;
  };
}

/**
 * The last round of the tests, which the summary's Tests line reports; the program's run once (a smoke
 * report, shown as executability) or the install step only when no test round came.
 */
function lastTestRound(messages: readonly { type: string; payload: unknown }[]): TestReport | null {
  const reports = messages.filter((m) => m.type === 'TestReport').map((m) => m.payload as TestReport);
  return reports.findLast((r) => (r.kind ?? 'tests') === 'tests') ?? reports.at(-1) ?? null;
}
