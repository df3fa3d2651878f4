/**
 * The run report for a terminal: outcome, timeline, artifacts, QA rounds, usage and cost, git log. Pure.
 * Nearly everything in it came from a model or a repository (summaries, file names, commit subjects,
 * test names): every string of the report is made one clean line first (src/ground/terminal-text.ts).
 */
import pc from 'picocolors';
import { describeFigures } from '../../capabilities/project/index.ts';
import { coverageSummary } from '../../documents/index.ts';
import { shellCommand } from '../../ground/markdown.ts';
import { cleanStrings } from '../../ground/terminal-text.ts';
import { labelOf, shownValue, thousands } from './human-labels.ts';
import { oneLine, testCounts } from './message-summary.ts';
import type { RunReport } from './run-report.ts';
import type { UsageRow } from './usage-summary.ts';

const heading = (text: string): string => `\n${pc.bold(text)}`;

export interface ReportTextOptions {
  /** The terminal's width: free-text columns are cut to fit it. Unlimited when not given (a pipe, a file). */
  width?: number;
}

const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '').length;
/** The narrowest a free-text column is cut to, however narrow the terminal. */
const MIN_FLEX = 12;

/** Cuts a plain-text cell to `max` characters with an ellipsis. */
const cut = (text: string, max: number): string => (visible(text) <= max ? text : `${text.slice(0, Math.max(1, max - 1)).trimEnd()}…`);

/**
 * Left-aligned columns; the cells named in `right` are right-aligned (numbers). With a width, the
 * `flex` column (free text: a summary, a subject) is cut so each line fits.
 */
function columns(rows: string[][], right: ReadonlySet<number> = new Set(), fit: { width?: number; flex?: number } = {}): string[] {
  let widths = rows.reduce<number[]>((w, row) => row.map((cell, i) => Math.max(w[i] ?? 0, visible(cell))), []);
  if (fit.width !== undefined && fit.flex !== undefined && rows.length > 0) {
    const others = widths.reduce((sum, w, i) => (i === fit.flex ? sum : sum + w), 0) + 2 + 2 * (widths.length - 1);
    const room = Math.max(MIN_FLEX, fit.width - others);
    if ((widths[fit.flex] ?? 0) > room) {
      rows = rows.map((row) => row.map((cell, i) => (i === fit.flex ? cut(cell, room) : cell)));
      widths = rows.reduce<number[]>((w, row) => row.map((cell, i) => Math.max(w[i] ?? 0, visible(cell))), []);
    }
  }
  return rows.map((row) =>
    (
      '  ' +
      row
        .map((cell, i) => {
          const pad = ' '.repeat(widths[i]! - visible(cell));
          return right.has(i) ? pad + cell : i === row.length - 1 ? cell : cell + pad;
        })
        .join('  ')
    ).trimEnd(),
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

/** The prompt tokens a cache served and the hit rate, as the provider reported them; "—" where it said nothing. */
const cachedCells = (r: UsageRow): [string, string] =>
  r.cacheHitRate === null ? ['—', '—'] : [thousands(r.cachedPromptTokens), `${(100 * r.cacheHitRate).toFixed(1)}%`];

/** A usage table, per role or per role and action, as the run summary shows it: counts, tokens, cost in dollars. */
function usageRows(report: RunReport, by: 'byRole' | 'byAction', width: number | undefined): string[] {
  const { usage } = report;
  const costs = usage.costFields;
  // On a narrow terminal the headings shrink before the names do, and the hit rate stands for the cached tokens.
  const narrow = width !== undefined && width < 100;
  const cells = (r: UsageRow) => [
    r.name,
    thousands(r.calls),
    thousands(r.promptTokens),
    ...(narrow ? cachedCells(r).slice(1) : cachedCells(r)),
    thousands(r.completionTokens),
    thousands(r.repairs),
    ...costs.map((c) => (r.costs[c] === undefined ? '' : r.costs[c] === null ? 'unknown' : shownValue(c, r.costs[c]))),
  ];
  const tokens = narrow ? ['prompt', 'hit', 'reply'] : ['prompt tokens', 'cached', 'hit rate', 'completion tokens'];
  const header = [by === 'byRole' ? 'role' : 'role/action', 'calls', ...tokens, 're-asks', ...costs.map((c) => labelOf(c).toLowerCase())];
  const numeric = new Set(header.map((_, i) => i).filter((i) => i > 0));
  return columns([header.map((h) => pc.dim(h)), ...usage[by].map(cells), cells(usage.total)], numeric, { width, flex: 0 });
}

/** Words filled into lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number | undefined): string[] {
  if (width === undefined || text.length <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A line cut to the width, when there is one. */
const fitLine = (line: string, width: number | undefined): string => (width === undefined || visible(line) <= width ? line : cut(line, width));

/** Each criterion of the last coverage matrix: its id, priority, status and the tests that cite it. */
function criteriaLines(report: RunReport, width: number | undefined): string[] {
  const { coverage } = report;
  if (!coverage) return [heading('Criteria'), '  no coverage matrix yet'];
  const s = coverageSummary(coverage);
  const shown = { proven: pc.green('proven'), failing: pc.red('FAILING'), rejected: pc.red('REJECTED'), untested: pc.yellow('untested') } as const;
  const tests = (c: (typeof coverage.criteria)[number]) =>
    c.tests.length > 0
      ? `${c.tests.filter((t) => t.outcome === 'passed').length}/${c.tests.length} tests pass`
      : c.manual
        ? `manual: ${c.manual.verdict === null ? 'awaiting review' : `${c.manual.verdict} (${oneLine(c.manual.verdictReason ?? '', 120)})`}`
        : pc.dim('no test');
  return [
    fitLine(heading(`Criteria (round ${coverage.round}: ${s.proven} of ${s.total} proven, P0 ${s.p0Proven} of ${s.p0Total})`), width),
    ...columns(
      coverage.criteria.map((c) => [c.id, c.priority, shown[c.status], tests(c), oneLine(c.text, 200)]),
      new Set(),
      { width, flex: 4 },
    ),
  ];
}

export function renderReportText(untrusted: RunReport, options: ReportTextOptions = {}): string {
  const report = cleanStrings(untrusted);
  const { width } = options;
  const { info } = report;
  const lines: string[] = [];
  lines.push(fitLine(`${pc.bold(report.name)}${info ? ` — ${oneLine(info.spec, 200)}` : ''}`, width));
  lines.push(`${pc.bold('Outcome')}  ${statusLine(report)}`);
  if (info) {
    const wall = info.wallMs !== undefined ? ` · wall time ${seconds(info.wallMs)}` : '';
    lines.push(fitLine(`${pc.bold('Model')}    ${info.model} · started ${info.startedAt}${wall}`, width));
  }
  for (const fact of report.costFacts) lines.push(fitLine(`${pc.bold(fact.name.padEnd(7))}  ${fact.value}`, width));

  lines.push(heading(`Timeline (${report.timeline.length} messages)`));
  lines.push(
    ...columns(
      report.timeline.map((t) => [String(t.seq), t.offsetMs === null ? '' : `+${seconds(t.offsetMs)}`, `${t.from} → ${t.to}`, pc.cyan(t.type), t.summary]),
      new Set([0, 1]),
      { width, flex: 4 },
    ),
  );

  lines.push(heading(`Artifacts (${report.artifacts.length})`));
  lines.push(
    ...columns(
      report.artifacts.map((a) => [a.messageId, pc.cyan(a.type), a.from, a.paths.join(', '), artifactWhere(a)]),
      new Set(),
      { width, flex: 3 },
    ),
  );

  lines.push(heading('Tests'));
  if (report.tests.length === 0) lines.push('  no QA round yet');
  for (const round of report.tests) {
    const r = round.report;
    const verdict = r.passed ? pc.green(testCounts(r)) : pc.red(testCounts(r));
    // How it ran is the machine's, not the project's: here, not in the committed report.
    const mode = r.sandbox ? pc.dim(` · sandbox ${r.sandbox.mode}`) : '';
    lines.push(fitLine(`  round ${r.round}  ${verdict}  ${pc.dim(shellCommand(r.command))}${mode}`, width));
    const flaky = new Map((r.vsBase?.flaky ?? []).map((f) => [f.name, f.evidence]));
    for (const failure of r.failures) {
      const aside = flaky.get(failure.name);
      if (aside !== undefined) lines.push(fitLine(`    ${pc.yellow('~')} ${failure.name}: flaky, not blamed (${aside})`, width));
      else lines.push(fitLine(`    ${pc.red('✗')} ${failure.name}${failure.message ? `: ${oneLine(failure.message, 100)}` : ''}`, width));
    }
    if (round.bug) lines.push(fitLine(`    bug report ${round.bug.id} → ${round.bug.to}: ${oneLine(round.bug.payload.summary, 100)}`, width));
  }

  lines.push(...criteriaLines(report, width));

  lines.push(heading('Figures'));
  lines.push(
    ...columns(
      describeFigures(report.figures).map((f) => [f.name, f.value]),
      new Set(),
      { width, flex: 1 },
    ),
  );

  lines.push(...usageSection(report, width));

  lines.push(heading(`Git log (${report.commits.length} commit${report.commits.length === 1 ? '' : 's'})`));
  lines.push(
    ...columns(
      report.commits.map((c) => [pc.yellow(c.hash.slice(0, 7)), c.author, c.subject, c.messageId ?? '']),
      new Set(),
      { width, flex: 2 },
    ),
  );

  if (report.warnings.length > 0) {
    lines.push(heading(pc.yellow('Warnings')));
    // Warnings are wrapped, never cut: each says what is missing from the report.
    lines.push(...report.warnings.flatMap((w) => wrap(w, width === undefined ? undefined : width - 2).map((l) => `  ${l}`)));
  }
  return lines.join('\n');
}

/** The usage tables, per role and per step (`review --usage` prints them alone). */
function usageSection(report: RunReport, width: number | undefined): string[] {
  const lines = [heading(`Usage${report.usage.source === 'exchanges' ? ' so far (from the model exchanges)' : ''}`)];
  lines.push(...usageRows(report, 'byRole', width), '');
  lines.push(...usageRows(report, 'byAction', width));
  if (report.usage.costFields.length === 0) lines.push(pc.dim('  cost: not recorded by this run'));
  return lines;
}

/** `review --usage`: the run's name, its cost facts and the usage tables, the tables a run's end summary leaves out. */
export function renderUsageText(untrusted: RunReport, options: ReportTextOptions = {}): string {
  const report = cleanStrings(untrusted);
  const { width } = options;
  const lines = [fitLine(pc.bold(report.name), width)];
  for (const fact of report.costFacts) lines.push(fitLine(`${pc.bold(fact.name.padEnd(7))}  ${fact.value}`, width));
  lines.push(...usageSection(report, width));
  return lines.join('\n');
}

/** Where an artifact is: its commit, the run folder for a document kept out of the branch, or not yet. */
const artifactWhere = (a: RunReport['artifacts'][number]): string =>
  a.commit ? a.commit.slice(0, 7) : a.onBranch ? pc.dim('not committed yet') : pc.dim('run folder (.sopworks/documents/)');
