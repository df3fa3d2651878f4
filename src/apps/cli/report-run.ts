/** The end of `run`, `resume` and `change`: the summary, what to do next, the exit code of the outcome. */
import path from 'node:path';
import type { RunResult } from '../../company/finish-run.ts';
import { Workspace } from '../../capabilities/repository/workspace.ts';
import { INSTEAD, whyNotContinuable } from '../../engine/run/run-continuation.ts';
import type { CommandOutput, RunCommandName } from './command-output.ts';
import { summaryLine } from './json-lines-schema.ts';
import { EXIT } from './output.ts';
import { renderSummary } from './summary.ts';

export async function reportRun(result: RunResult, model: string, output: CommandOutput, command: RunCommandName, extraNext: string[] = []): Promise<number> {
  const workspace = await Workspace.open(result.projectDir);
  const [files, history] = await Promise.all([workspace.trackedFiles(), workspace.history()]);
  const shown = path.relative(process.cwd(), result.projectDir) || result.projectDir;
  const { exitCode, lines, next } = whatNext(result, shown);
  const io = output.human;
  if (output.json) {
    const t = result.lastTestReport;
    const counts = t?.counts ? `${t.counts.passed} passed, ${t.counts.failed} failed` : t ? `exit code ${t.exitCode}` : '';
    output.json(
      summaryLine({
        command,
        outcome: result.outcome,
        reason: result.reason,
        exitCode,
        projectDir: result.projectDir,
        files: files.length,
        commits: history.length,
        tests: t ? { round: t.round, passed: t.passed, detail: counts } : null,
        usage: result.usage.total(),
        wallMs: result.wallMs,
        next: [...next, ...extraNext],
      }),
    );
  } else {
    io.out(renderSummary(result, { files, commits: history.length, model }));
  }
  for (const line of lines) io.out(line);
  return exitCode;
}

/** The exit code of an outcome, the lines that say what to do next, and the commands among them. */
function whatNext(result: RunResult, shown: string): { exitCode: number; lines: string[]; next: string[] } {
  if (result.outcome === 'done') return { exitCode: EXIT.done, lines: [`\nNext: cd ${shown} && git log --stat`], next: [`cd ${shown} && git log --stat`] };
  const why = result.outcome === 'failed' ? whyNotContinuable(result.messages) : null;
  if (why) return { exitCode: EXIT.failed, lines: [`\n${why}\n${INSTEAD}`], next: [] };
  const lines = [`\nContinue it with: sopworks resume ${shown}`];
  const next = [`sopworks resume ${shown}`];
  if (result.outcome === 'budget-exhausted') lines.push('Raise the limit with --budget <dollars> or --max-tokens <tokens> when you resume.');
  if (result.outcome === 'awaiting-approval') {
    lines.push(`Decide first: sopworks approve ${shown}  (or --reject "what to change")`);
    next.unshift(`sopworks approve ${shown}`);
  }
  const exitCode =
    result.outcome === 'awaiting-approval'
      ? EXIT.awaitingApproval
      : result.outcome === 'interrupted'
        ? EXIT.interrupted
        : result.outcome === 'budget-exhausted'
          ? EXIT.budgetExhausted
          : EXIT.failed;
  return { exitCode, lines, next };
}
