/** The run report for a terminal: outcome, timeline, artifacts, QA rounds, usage and cost, git log. Pure. */
import pc from 'picocolors';
import { shellCommand } from '../artifacts/render/markdown.ts';
import { oneLine, testCounts } from './message-summary.ts';
import type { RunReport } from './run-report.ts';
import { describeFigures } from '../artifacts/run-figures.ts';
import type { UsageRow } from './usage-summary.ts';

const heading = (text: string): string => `\n${pc.bold(text)}`;

/** Left-aligned columns; the cells named in `right` are right-aligned (numbers). */
function columns(rows: string[][], right: ReadonlySet<number> = new Set()): string[] {
  const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '').length;
  const widths = rows.reduce<number[]>((w, row) => row.map((cell, i) => Math.max(w[i] ?? 0, visible(cell))), []);
  return rows.map((row) =>
    ('  ' + row.map((cell, i) => {
      const pad = ' '.repeat(widths[i]! - visible(cell));
      return right.has(i) ? pad + cell : i === row.length - 1 ? cell : cell + pad;
    }).join('  ')).trimEnd(),
  );
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

function statusLine(report: RunReport): string {
  const { status } = report;
  if (status.finished) {
    const verdict = status.outcome === 'done' ? pc.green(pc.bold('done')) : pc.red(pc.bold(status.outcome ?? 'unknown'));
    return `${verdict}${status.reason ? ` — ${status.reason}` : ''}`;
  }
  const posted = status.outcome ? ` (outcome posted: ${status.outcome}${status.reason ? ` — ${status.reason}` : ''})` : '';
  if (status.running) return `${pc.yellow(pc.bold('in progress'))}${posted}`;
  return `${pc.yellow(pc.bold('stopped before an outcome'))}${posted} — no sopworks process is at work on it; \`sopworks resume ${report.dir}\` continues it`;
}

function usageRows(report: RunReport): string[] {
  const { usage } = report;
  const costs = usage.costFields;
  const cells = (r: UsageRow) => [
    r.name,
    String(r.calls),
    String(r.promptTokens),
    String(r.completionTokens),
    String(r.repairs),
    ...costs.map((c) => (r.costs[c] === undefined ? '' : r.costs[c] === null ? 'unknown' : String(r.costs[c]))),
  ];
  const header = ['role', 'calls', 'prompt tokens', 'completion tokens', 're-asks', ...costs];
  const numeric = new Set(header.map((_, i) => i).filter((i) => i > 0));
  return columns([header.map((h) => pc.dim(h)), ...usage.byRole.map(cells), cells(usage.total)], numeric);
}

export function renderReportText(report: RunReport): string {
  const { info } = report;
  const lines: string[] = [];
  lines.push(`${pc.bold(report.name)}${info ? ` — ${oneLine(info.spec, 200)}` : ''}`);
  lines.push(`${pc.bold('Outcome')}  ${statusLine(report)}`);
  if (info) {
    const wall = info.wallMs !== undefined ? ` · wall time ${seconds(info.wallMs)}` : '';
    lines.push(`${pc.bold('Model')}    ${info.model} · started ${info.startedAt}${wall}`);
  }
  for (const fact of report.costFacts) lines.push(`${pc.bold(fact.name)}  ${fact.value}`);

  lines.push(heading(`Timeline (${report.timeline.length} messages)`));
  lines.push(
    ...columns(
      report.timeline.map((t) => [
        String(t.seq),
        t.offsetMs === null ? '' : `+${seconds(t.offsetMs)}`,
        `${t.from} → ${t.to}`,
        pc.cyan(t.type),
        t.summary,
      ]),
      new Set([0, 1]),
    ),
  );

  lines.push(heading(`Artifacts (${report.artifacts.length})`));
  lines.push(
    ...columns(
      report.artifacts.map((a) => [a.messageId, pc.cyan(a.type), a.from, a.paths.join(', '), a.commit ? a.commit.slice(0, 7) : pc.dim('not committed yet')]),
    ),
  );

  lines.push(heading('Tests'));
  if (report.tests.length === 0) lines.push('  no QA round yet');
  for (const round of report.tests) {
    const r = round.report;
    const verdict = r.passed ? pc.green(testCounts(r)) : pc.red(testCounts(r));
    lines.push(`  round ${r.round}  ${verdict}  ${pc.dim(shellCommand(r.command))}`);
    for (const failure of r.failures) lines.push(`    ${pc.red('✗')} ${failure.name}${failure.message ? `: ${oneLine(failure.message, 100)}` : ''}`);
    if (round.bug) lines.push(`    bug report ${round.bug.id} → ${round.bug.to}: ${oneLine(round.bug.payload.summary, 100)}`);
  }

  lines.push(heading('Figures'));
  lines.push(...columns(describeFigures(report.figures).map((f) => [f.name, f.value])));

  lines.push(heading(`Usage${report.usage.source === 'exchanges' ? ' so far (from the model exchanges)' : ''}`));
  lines.push(...usageRows(report));
  if (report.usage.costFields.length === 0) lines.push(pc.dim('  cost: not recorded by this run'));

  lines.push(heading(`Git log (${report.commits.length} commit${report.commits.length === 1 ? '' : 's'})`));
  lines.push(...columns(report.commits.map((c) => [pc.yellow(c.hash.slice(0, 7)), c.author, c.subject, c.messageId ?? ''])));

  if (report.warnings.length > 0) {
    lines.push(heading(pc.yellow('Warnings')));
    lines.push(...report.warnings.map((w) => `  ${w}`));
  }
  return lines.join('\n');
}
