/**
 * The evaluation table in two forms from the same cells: aligned text for the terminal and a markdown
 * table for eval.md. Also the aggregates, in MetaGPT's and ChatDev's terms, and a side-by-side
 * comparison of two suites' results (`eval --compare`).
 */

import { cleanStrings } from '../../ground/terminal-text.ts';
import type { Aggregates, SpecResult, SuiteResults } from './spec-result.ts';

export type Table = { header: string[]; rows: string[][] };

const money = (usd: number | null): string => (usd === null ? 'n/a' : `$${usd.toFixed(4)}`);
const percent = (share: number | null): string => (share === null ? 'n/a' : `${Math.round(share * 1000) / 10}%`);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const yesNo = (value: boolean | null): string => (value === null ? 'n/a' : value ? 'yes' : 'no');

function testsCell(tests: SpecResult['tests']): string {
  if (tests === null) return 'not run';
  if (tests.counts === null) return tests.allPassed ? 'passed' : 'failed';
  return `${tests.counts.passed}/${tests.counts.passed + tests.counts.failed}`;
}

export function specTable(results: readonly SpecResult[]): Table {
  return {
    header: [
      'spec',
      'outcome',
      'tests passed',
      'criteria proven',
      'entry runs',
      'checks',
      'files',
      'lines',
      'calls',
      'prompt tok',
      'completion tok',
      'tok/line',
      'cost',
      'wall',
    ],
    rows: results.map((r) => [
      r.name,
      r.outcome,
      testsCell(r.tests),
      r.criteria ? `${r.criteria.proven}/${r.criteria.total} (P0 ${r.criteria.p0Proven}/${r.criteria.p0Total})` : 'n/a',
      yesNo(r.entryRuns),
      r.checks.length === 0 ? '-' : `${r.checks.filter((c) => c.passed).length}/${r.checks.length}`,
      String(r.files),
      String(r.lines),
      String(r.calls),
      String(r.promptTokens),
      String(r.completionTokens),
      r.tokensPerLine === null ? 'n/a' : String(r.tokensPerLine),
      money(r.costUsd),
      seconds(r.wallMs),
    ]),
  };
}

/** The aggregates as label/value rows. */
export function aggregateTable(a: Aggregates): Table {
  return {
    header: ['measure', 'value'],
    rows: aggregateRows(a).map(([label, value]) => [label, value]),
  };
}

function aggregateRows(a: Aggregates): [string, string][] {
  return [
    ['runs done', `${a.done}/${a.specs}`],
    ['MetaGPT · running time (avg)', `${a.avgRunningTimeS}s`],
    ['MetaGPT · tokens (avg)', `${a.avgTokens} (prompt ${a.avgPromptTokens}, completion ${a.avgCompletionTokens})`],
    ['MetaGPT · code files (avg)', String(a.avgFiles)],
    ['MetaGPT · lines of code (avg)', String(a.avgLines)],
    ['MetaGPT · tokens per line', a.tokensPerLine === null ? 'n/a' : String(a.tokensPerLine)],
    ['ChatDev · executability', percent(a.executability)],
    ['ChatDev · completeness', percent(a.completeness)],
    ['generated tests all pass', percent(a.testsPassRate)],
    ['acceptance criteria proven', percent(a.criteriaProvenRate ?? null)],
    ['P0 criteria proven', percent(a.p0ProvenRate ?? null)],
    ['suite checks all pass', percent(a.checksPassRate)],
    ['model calls (total)', String(a.totalCalls)],
    ['cost (total)', money(a.totalCostUsd)],
    ['suite wall time', seconds(a.suiteWallMs)],
  ];
}

/** Two suites side by side: per spec (matched by name) and the aggregates. */
export function compareTables(a: SuiteResults, b: SuiteResults): { specs: Table; aggregates: Table } {
  const names = [...new Set([...a.specs.map((s) => s.name), ...b.specs.map((s) => s.name)])];
  const find = (r: SuiteResults, name: string) => r.specs.find((s) => s.name === name);
  const brief = (s: SpecResult | undefined): [string, string, string, string] =>
    s === undefined ? ['-', '-', '-', '-'] : [s.outcome, testsCell(s.tests), String(s.promptTokens + s.completionTokens), seconds(s.wallMs)];
  const specs: Table = {
    header: ['spec', `A outcome`, 'A tests', 'A tokens', 'A wall', 'B outcome', 'B tests', 'B tokens', 'B wall', 'tokens B/A'],
    rows: names.map((name) => {
      const [x, y] = [find(a, name), find(b, name)];
      const ratio =
        x && y && x.promptTokens + x.completionTokens > 0 ? ((y.promptTokens + y.completionTokens) / (x.promptTokens + x.completionTokens)).toFixed(2) : 'n/a';
      return [name, ...brief(x), ...brief(y), ratio];
    }),
  };
  const [rowsA, rowsB] = [aggregateRows(a.aggregates), aggregateRows(b.aggregates)];
  const aggregates: Table = {
    header: ['measure', `A: ${a.suite} (${a.model})`, `B: ${b.suite} (${b.model})`],
    rows: rowsA.map(([label, value], i) => [label, value, rowsB[i]![1]]),
  };
  return { specs, aggregates };
}

/** Aligned text; every cell one clean line (a job's name or reason is anyone's text). */
export function renderText(untrusted: Table): string {
  const table = cleanStrings(untrusted);
  const widths = table.header.map((h, i) => Math.max(h.length, ...table.rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(table.header), widths.map((w) => '-'.repeat(w)).join('  '), ...table.rows.map(line)].join('\n');
}

export function renderMarkdown(table: Table): string {
  const escapeCell = (cell: string) => cell.replace(/\|/g, '\\|');
  return [
    `| ${table.header.map(escapeCell).join(' | ')} |`,
    `| ${table.header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...table.rows.map((r) => `| ${r.map(escapeCell).join(' | ')} |`),
  ].join('\n');
}
