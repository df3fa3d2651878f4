/** `sopworks review <project folder>`: the run report in the terminal. */
import path from 'node:path';
import { z } from 'zod';
import { changeSummary } from '../../capabilities/change/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { cleanBlock, cleanStrings } from '../../ground/terminal-text.ts';
import { summaryLine } from '../console/index.ts';
import { buildRunReport, loadRun, type RunReport, readChangeDiff, renderChangeText, renderReportText, renderUsageText } from '../review/index.ts';
import { EXIT, type Output } from './output.ts';

/** The width to fit: $COLUMNS when set, else the terminal's; none for a pipe or a file (nothing is cut). */
function terminalWidth(io: Output): number | undefined {
  const fromEnv = Number(process.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv >= 40) return fromEnv;
  return io.terminal?.columns;
}

export const ReviewArgs = z.object({ dir: z.string().trim().min(1, 'give the folder of a run, e.g. output/<project>') });

export async function reviewCommand(
  rawDir: unknown,
  io: Output,
  flags: { json: boolean; diff: boolean; usage?: boolean } = { json: false, diff: false },
): Promise<number> {
  const { dir } = ReviewArgs.parse({ dir: rawDir });
  const { json } = flags;
  const { record, commits } = await loadRun(path.resolve(dir));
  if (flags.diff) return printDiff(path.resolve(dir), record, io, json);
  const report = buildRunReport(record, commits);
  if (flags.usage && !json) {
    io.out(renderUsageText(report, { width: terminalWidth(io) }));
    return EXIT.done;
  }
  if (json) {
    printJson(report, io);
    return EXIT.done;
  }
  io.out(renderReportText(report, { width: terminalWidth(io) }));
  // A change run (sopworks change): the change against its base.
  const change = await changeSummary(path.resolve(dir));
  if (change) io.out(`\n${change}`);
  return EXIT.done;
}

/** `--diff`: the change against its base; a run that is not a change is refused, saying what shows its work. */
async function printDiff(dir: string, record: Awaited<ReturnType<typeof loadRun>>['record'], io: Output, json: boolean): Promise<number> {
  const view = await readChangeDiff(dir, record.info, record.messages);
  if (!view) {
    throw new SopworksError('USAGE', `${dir} is not a change run (made by \`sopworks change\`): it has no base to compare with.`, {
      hint: `Its history, one commit per artifact: git -C ${dir} log -p`,
    });
  }
  if (json) {
    throw new SopworksError('USAGE', '--diff prints the change for a person; it has no --json form.', {
      hint: `For a script, git has it: ${view.commands.review.replace(' diff ', ' diff --numstat ')} (or --patch).`,
    });
  }
  io.out(renderChangeText(view));
  return EXIT.done;
}

/** `--json`: a line per board message, in words, then the summary with the outcome. */
function printJson(report: RunReport, io: Output): void {
  for (const e of report.timeline) {
    // A summary says what a model wrote: no control but newline and tab.
    io.out(
      JSON.stringify(
        cleanStrings(
          { type: 'timeline', seq: e.seq, id: e.id, messageType: e.type, from: e.from, to: e.to, createdAt: e.createdAt, summary: e.summary },
          cleanBlock,
        ),
      ),
    );
  }
  const last = report.tests.at(-1)?.report ?? null;
  const t = report.usage.total;
  const costUsd = t.costs.costUsd;
  io.out(
    JSON.stringify(
      cleanStrings(
        summaryLine({
          command: 'review',
          outcome: report.status.running ? 'running' : report.status.outcome,
          reason: report.status.reason,
          exitCode: EXIT.done,
          projectDir: report.dir,
          commits: report.commits.length,
          tests: last
            ? {
                round: last.round,
                passed: last.passed,
                detail: last.counts ? `${last.counts.passed} passed, ${last.counts.failed} failed` : `exit code ${last.exitCode}`,
              }
            : null,
          criteria: report.figures.criteria ?? null,
          usage: {
            calls: t.calls,
            promptTokens: t.promptTokens,
            cachedPromptTokens: t.cachedPromptTokens,
            cacheHitRate: t.cacheHitRate,
            completionTokens: t.completionTokens,
            repairs: t.repairs,
            retries: null,
            costUsd: costUsd ?? null,
          },
          usageByRole: report.usage.byRole.map((r) => ({
            role: r.name,
            calls: r.calls,
            promptTokens: r.promptTokens,
            cachedPromptTokens: r.cachedPromptTokens,
            cacheHitRate: r.cacheHitRate,
            completionTokens: r.completionTokens,
            repairs: r.repairs,
            retries: null,
            costUsd: r.costs.costUsd ?? null,
          })),
          wallMs: report.info?.wallMs ?? null,
        }),
        cleanBlock,
      ),
    ),
  );
}
