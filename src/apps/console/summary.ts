/**
 * The summary printed when a run ends: outcome, files, commits, tests, model usage, wall time. The
 * reason and names may quote a model or a repository: each is one clean line (src/ground/terminal-text.ts).
 */
import path from 'node:path';
import pc from 'picocolors';
import type { UsageTotals } from '../../capabilities/model/index.ts';
import { cacheHitRate, formatUsd } from '../../capabilities/model/index.ts';
import { describeFigures, runFigures } from '../../capabilities/project/index.ts';
import type { RunResult } from '../../company/index.ts';
import { cleanBlock, cleanLine } from '../../ground/terminal-text.ts';

export interface SummaryFacts {
  files: string[];
  commits: number;
  model: string;
}

export function renderSummary(result: RunResult, facts: SummaryFacts): string {
  const lines: string[] = [];
  const verdict =
    result.outcome === 'done'
      ? pc.green(pc.bold('done'))
      : result.outcome === 'criteria-unmet'
        ? pc.yellow(pc.bold(result.outcome))
        : pc.red(pc.bold(result.outcome));
  const shown = path.relative(process.cwd(), result.projectDir) || result.projectDir;
  // A reason may list its issues one a line (its layout); no other control of what it quotes reaches the terminal.
  lines.push('', `${pc.bold('Outcome')}   ${verdict} — ${cleanBlock(result.reason)}`);
  lines.push(`${pc.bold('Project')}   ${cleanLine(shown)}: ${facts.files.length} files, ${facts.commits} commits`);
  const t = result.lastTestReport;
  if (t) {
    const counts = t.counts ? `${t.counts.passed} passed, ${t.counts.failed} failed` : `exit code ${t.exitCode}`;
    lines.push(`${pc.bold('Tests')}     round ${t.round} ${t.passed ? pc.green('passed') : pc.red('failed')} (${counts})`);
  } else {
    lines.push(`${pc.bold('Tests')}     not run`);
  }
  for (const figure of describeFigures(runFigures(result.messages))) lines.push(`  ${figure.name.padEnd(15)}${cleanLine(figure.value)}`);
  lines.push(`${pc.bold('Model')}     ${cleanLine(facts.model)}`);
  lines.push(usageTable('role', result.usage.byRole(), result.usage.total()));
  lines.push(usageTable('role/action', result.usage.byAction(), result.usage.total()));
  // Which model answered what, with each model's own price, once a run asks more than one.
  const byModel = result.usage.byModel();
  if (byModel.size > 1) lines.push(usageTable('model', byModel, result.usage.total()));
  lines.push(`${pc.bold('Wall time')} ${(result.wallMs / 1000).toFixed(1)}s`);
  lines.push(`${pc.bold('Record')}    ${path.join(shown, '.sopworks')}/ (board.jsonl, exchanges.jsonl, run.json)`);
  return lines.join('\n');
}

/** The prompt tokens a cache served and the hit rate, as the provider reported them; "—" where it said nothing. */
export const cachedCells = (u: UsageTotals): [string, string] => {
  const rate = cacheHitRate(u);
  return rate === null ? ['—', '—'] : [String(u.cachedPromptTokens), `${(100 * rate).toFixed(1)}%`];
};

function usageTable(by: string, byRole: Map<string, UsageTotals>, total: UsageTotals): string {
  const header = [by, 'calls', 'prompt tokens', 'cached', 'hit rate', 'completion tokens', 're-asks', 'retries', 'cost'];
  const row = (name: string, u: UsageTotals) => [
    cleanLine(name),
    String(u.calls),
    String(u.promptTokens),
    ...cachedCells(u),
    ...[u.completionTokens, u.repairs, u.retries].map(String),
    formatUsd(u.costUsd),
  ];
  const rows = [...byRole.entries()].map(([role, u]) => row(role, u));
  rows.push(row('total', total));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header.map((h) => h)), ...rows.map(line)].join('\n');
}
