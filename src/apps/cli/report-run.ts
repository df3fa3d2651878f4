/** The end of `run` and `resume`: the summary, what to do next, the exit code of the outcome. */
import path from 'node:path';
import type { RunResult } from '../../company/finish-run.ts';
import { Workspace } from '../../capabilities/repository/workspace.ts';
import { INSTEAD, whyNotContinuable } from '../../engine/run/run-continuation.ts';
import { EXIT, type Output } from './output.ts';
import { renderSummary } from './summary.ts';

export async function reportRun(result: RunResult, model: string, io: Output): Promise<number> {
  const workspace = await Workspace.open(result.projectDir);
  const [files, history] = await Promise.all([workspace.trackedFiles(), workspace.history()]);
  io.out(renderSummary(result, { files, commits: history.length, model }));
  const shown = path.relative(process.cwd(), result.projectDir) || result.projectDir;
  if (result.outcome === 'done') {
    io.out(`\nNext: cd ${shown} && git log --stat`);
    return EXIT.done;
  }
  const why = result.outcome === 'failed' ? whyNotContinuable(result.messages) : null;
  if (why) {
    io.out(`\n${why}\n${INSTEAD}`);
    return EXIT.failed;
  }
  io.out(`\nContinue it with: sopworks resume ${shown}`);
  if (result.outcome === 'budget-exhausted') io.out('Raise the limit with --budget <dollars> or --max-tokens <tokens> when you resume.');
  if (result.outcome === 'awaiting-approval') io.out(`Decide first: sopworks approve ${shown}  (or --reject "what to change")`);
  if (result.outcome === 'timed-out') io.out('It stopped at its time limit: give resume a new --max-time (or none) to go on.');
  if (result.outcome === 'awaiting-approval') return EXIT.awaitingApproval;
  if (result.outcome === 'timed-out') return EXIT.timedOut;
  return result.outcome === 'interrupted' ? EXIT.interrupted : result.outcome === 'budget-exhausted' ? EXIT.budgetExhausted : EXIT.failed;
}
