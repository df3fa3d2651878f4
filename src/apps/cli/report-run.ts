/** The end of `run` and `resume`: the summary, what to do next, the exit code of the outcome. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { RunResult } from '../../company/finish-run.ts';
import { STATE_DIR, Workspace } from '../../capabilities/repository/workspace.ts';
import { insteadFor, whyNotContinuable } from '../../engine/run/run-continuation.ts';
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
    const record = await fs
      .readFile(path.join(result.projectDir, STATE_DIR, 'run.json'), 'utf8')
      .then((text) => JSON.parse(text) as object)
      .catch(() => null);
    io.out(`\n${why}\n${insteadFor(record)}`);
    return EXIT.failed;
  }
  io.out(`\nContinue it with: sopworks resume ${shown}`);
  if (result.outcome === 'budget-exhausted') io.out('Raise the limit with --budget <dollars> or --max-tokens <tokens> when you resume.');
  if (result.outcome === 'awaiting-approval') io.out(`Decide first: sopworks approve ${shown}  (or --reject "what to change")`);
  if (result.outcome === 'awaiting-approval') return EXIT.awaitingApproval;
  return result.outcome === 'interrupted' ? EXIT.interrupted : result.outcome === 'budget-exhausted' ? EXIT.budgetExhausted : EXIT.failed;
}
