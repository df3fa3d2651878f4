/** The end of `run`, `change` and `resume`: the summary (or its JSON line) and what to do next; the result's exit code stands. */

import { runFigures } from '../../capabilities/project/index.ts';
import { Workspace } from '../../capabilities/repository/index.ts';
import type { SessionResult } from '../../session/index.ts';
import type { CommandOutput } from './command-output.ts';
import { fitLine } from './fit-line.ts';
import { summaryLine } from './json-lines-schema.ts';
import { renderSummary } from './summary.ts';
import { usageJson } from './usage-json.ts';

export async function reportRun(session: SessionResult, model: string, output: CommandOutput): Promise<void> {
  const { run: result } = session;
  const workspace = await Workspace.open(result.projectDir);
  const [files, history] = await Promise.all([workspace.trackedFiles(), workspace.history()]);
  const io = output.human;
  if (output.json) {
    const t = result.lastTestReport;
    const counts = t?.counts ? `${t.counts.passed} passed, ${t.counts.failed} failed` : t ? `exit code ${t.exitCode}` : '';
    output.json(
      summaryLine({
        command: session.command,
        outcome: result.outcome,
        reason: result.reason,
        exitCode: session.exitCode,
        projectDir: result.projectDir,
        files: files.length,
        commits: history.length,
        tests: t ? { round: t.round, passed: t.passed, detail: counts } : null,
        criteria: runFigures(result.messages).criteria ?? null,
        usage: usageJson(result.usage.total()),
        usageByRole: [...result.usage.byRole()].map(([role, u]) => ({ role, ...usageJson(u) })),
        wallMs: result.wallMs,
        next: session.next,
        questions: session.questions.length > 0 ? session.questions.map((q) => ({ role: q.role, round: q.round, questions: [...q.questions] })) : null,
      }),
    );
  } else {
    io.out(fitLines(renderSummary(result, { files, commits: history.length, model }), output.columns()));
  }
  for (const line of session.lines) io.out(fitLines(line, output.columns()));
}

/** Each line of a block cut to the terminal's width (the summary is one block, its reason may take several lines). */
const fitLines = (block: string, columns: number | undefined): string =>
  block
    .split('\n')
    .map((line) => fitLine(line, columns))
    .join('\n');
