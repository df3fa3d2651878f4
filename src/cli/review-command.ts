/** `sopworks review <project folder>`: the run report in the terminal. */
import path from 'node:path';
import { z } from 'zod';
import { loadRun } from '../review/load-run.ts';
import { buildRunReport } from '../review/run-report.ts';
import { renderReportText } from '../review/report-text.ts';
import { EXIT, type Output } from './output.ts';
import { changeSummary } from '../change/change-summary.ts';

export const ReviewArgs = z.object({ dir: z.string().trim().min(1, 'give the folder of a run, e.g. output/<project>') });

export async function reviewCommand(rawDir: unknown, io: Output): Promise<number> {
  const { dir } = ReviewArgs.parse({ dir: rawDir });
  const { record, commits } = await loadRun(path.resolve(dir));
  io.out(renderReportText(buildRunReport(record, commits)));
  // A change run (sopworks change): the change against its base.
  const change = await changeSummary(path.resolve(dir));
  if (change) io.out(`\n${change}`);
  return EXIT.done;
}
