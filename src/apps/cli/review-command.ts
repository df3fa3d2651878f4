/** `sopworks review <project folder>`: the run report in the terminal. */
import path from 'node:path';
import { z } from 'zod';
import { loadRun } from '../review/load-run.ts';
import { buildRunReport } from '../review/run-report.ts';
import { renderReportText } from '../review/report-text.ts';
import { EXIT, type Output } from './output.ts';
import { changeSummary } from '../../capabilities/change/change-summary.ts';

/** The width to fit: $COLUMNS when set, else the terminal's; none for a pipe or a file (nothing is cut). */
function terminalWidth(): number | undefined {
  const fromEnv = Number(process.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv >= 40) return fromEnv;
  return process.stdout.isTTY ? process.stdout.columns : undefined;
}

export const ReviewArgs = z.object({ dir: z.string().trim().min(1, 'give the folder of a run, e.g. output/<project>') });

export async function reviewCommand(rawDir: unknown, io: Output): Promise<number> {
  const { dir } = ReviewArgs.parse({ dir: rawDir });
  const { record, commits } = await loadRun(path.resolve(dir));
  io.out(renderReportText(buildRunReport(record, commits), { width: terminalWidth() }));
  // A change run (sopworks change): the change against its base.
  const change = await changeSummary(path.resolve(dir));
  if (change) io.out(`\n${change}`);
  return EXIT.done;
}
