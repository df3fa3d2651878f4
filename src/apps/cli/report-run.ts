/** The end of `run`, `resume` and `change`: the summary, what to do next, the exit code of the outcome. */
import path from 'node:path';
import type { RunResult } from '../../company/index.ts';
import { Workspace } from '../../capabilities/repository/index.ts';
import { insteadFor, whyNotContinuable } from '../../engine/run/index.ts';
import { readFileSync } from 'node:fs';
import type { CommandOutput, RunCommandName } from './command-output.ts';
import { summaryLine } from './json-lines-schema.ts';
import { EXIT } from './output.ts';
import { renderSummary } from './summary.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { approvalsOf, parseWaiting, questionsOf } from '../../capabilities/approvals/index.ts';

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

/** The exit code of each outcome that stops a run `resume` continues (a failure is 1). */
const STOPPED_EXIT: Partial<Record<RunResult['outcome'], number>> = {
  paused: EXIT.paused,
  'awaiting-approval': EXIT.awaitingApproval,
  'timed-out': EXIT.timedOut,
  interrupted: EXIT.interrupted,
  'budget-exhausted': EXIT.budgetExhausted,
};

/** The exit code of an outcome, the lines that say what to do next, and the commands among them. */
function whatNext(result: RunResult, shown: string): { exitCode: number; lines: string[]; next: string[] } {
  if (result.outcome === 'done') return { exitCode: EXIT.done, lines: [`\nNext: cd ${shown} && git log --stat`], next: [`cd ${shown} && git log --stat`] };
  if (result.outcome === 'criteria-unmet') return criteriaUnmet(shown);
  const why = result.outcome === 'failed' ? whyNotContinuable(result.messages) : null;
  if (why) return { exitCode: EXIT.failed, lines: [`\n${cleanLine(why)}\n${insteadFor(runRecordOf(result.projectDir))}`], next: [] };
  const lines = [`\nContinue it with: sopworks resume ${shown}`];
  const next = [`sopworks resume ${shown}`];
  if (result.outcome === 'budget-exhausted') lines.push('Raise the limit with --budget <dollars> or --max-tokens <tokens> when you resume.');
  if (result.outcome === 'timed-out') lines.push('It stopped at its time limit: give resume a new --max-time (or none) to go on.');
  if (result.outcome === 'awaiting-approval') {
    const waiting = waitingOf(result.projectDir);
    if (waiting.questions > 0) {
      lines.push(`Answer first: on the run's page (sopworks serve ${shown}), or resume it at a terminal, which asks them.`);
      next.unshift(`sopworks serve ${shown}`);
    }
    if (waiting.questions === 0 || waiting.approvals > 0) {
      lines.push(`Decide first: sopworks approve ${shown}  (or --reject "what to change")`);
      next.unshift(`sopworks approve ${shown}`);
    }
  }
  if (result.outcome === 'paused') {
    lines[0] = result.resumeAt
      ? `\nPaused at the endpoint's limit. Go on after ${result.resumeAt} with: sopworks resume ${shown}  (SOPWORKS_WAIT_FOR_QUOTA=true waits instead)`
      : `\nStopped early, as asked. Go on to the end with: sopworks resume ${shown}`;
  }
  const exitCode = STOPPED_EXIT[result.outcome] ?? EXIT.failed;
  return { exitCode, lines, next };
}

/**
 * A run delivered with a P0 criterion unproven: the reason named them; what is left is a change that
 * meets them (its own branch), since a resumed run would end the same way.
 */
function criteriaUnmet(shown: string): { exitCode: number; lines: string[]; next: string[] } {
  const change = `sopworks change ${shown} "<what the unmet criteria need>"`;
  return {
    exitCode: EXIT.criteriaUnmet,
    lines: [`\nThe criteria and the tests that prove them: sopworks review ${shown}`, `Ask for the rest with: ${change}`],
    next: [change],
  };
}

/** How many approvals and questions a stopped run waits on (.sopworks/approvals.json); none when it cannot be read. */
function waitingOf(projectDir: string): { approvals: number; questions: number } {
  try {
    const waiting = parseWaiting(JSON.parse(readFileSync(path.join(projectDir, '.sopworks', 'approvals.json'), 'utf8')));
    return { approvals: approvalsOf(waiting).length, questions: questionsOf(waiting).length };
  } catch {
    return { approvals: 0, questions: 0 };
  }
}

/** run.json, for what it says of a change run (its repository and branch); null when it cannot be read. */
function runRecordOf(projectDir: string): object | null {
  try {
    return JSON.parse(readFileSync(path.join(projectDir, '.sopworks', 'run.json'), 'utf8')) as object;
  } catch {
    return null;
  }
}
