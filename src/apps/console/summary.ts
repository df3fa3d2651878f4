/**
 * The summary printed when a run ends, about ten lines with the next command, so the outcome stays on a
 * 24-line screen: outcome, files, commits, tests, the figures a person acts on, model, usage in one line (its tables are `sopworks review --usage`'s, named on
 * the line after with where the record is). At a terminal each line is cut to its width (report-run.ts). The reason and names may quote a model or a repository: each is one clean line
 * (src/ground/terminal-text.ts).
 */
import path from 'node:path';
import pc from 'picocolors';
import { cacheHitRate, formatUsd, type UsageTotals } from '../../capabilities/model/index.ts';
import { describeFigures, runFigures } from '../../capabilities/project/index.ts';
import type { RunResult } from '../../company/index.ts';
import { cleanBlock, cleanLine } from '../../ground/terminal-text.ts';

/** Figures `sopworks review` shows that the end summary leaves out. */
const LEFT_TO_REVIEW = new Set(['Test pass rate', 'Fast checks']);

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
    // Flaky tests set aside are named with what they were seen doing: they are why a failed round may end done.
    const flaky = (t.vsBase?.flaky ?? []).map((f) => `${f.name} (${f.evidence})`);
    const aside = flaky.length > 0 ? `; flaky, not blamed: ${cleanLine(flaky.join('; '))}` : '';
    lines.push(`${pc.bold('Tests')}     round ${t.round} ${t.passed ? pc.green('passed') : pc.red('failed')} (${counts}${aside})`);
  } else {
    lines.push(`${pc.bold('Tests')}     not run`);
  }
  // The figures a person acts on; the pass rate repeats the Tests line and the fast checks are an eval's
  // figure: both are in `sopworks review`'s Figures and run.json, so the summary stays at about ten lines.
  for (const figure of describeFigures(runFigures(result.messages)))
    if (!LEFT_TO_REVIEW.has(figure.name)) lines.push(`  ${figure.name.padEnd(15)}${cleanLine(figure.value)}`);
  lines.push(`${pc.bold('Model')}     ${cleanLine(facts.model)}`);
  // One line, the figures a person looks for first (a narrow terminal cuts the rest): the tables per role
  // and per step are `sopworks review --usage`'s, named on the last line with the command first, so the outcome stays on screen.
  lines.push(`${pc.bold('Usage')}     ${usageLine(result.usage.total(), result.runWallMs)}`);
  // Which model answered what, each at its own price, once a run asks more than one: a line each.
  const byModel = result.usage.byModel();
  if (byModel.size > 1) for (const [model, u] of byModel) lines.push(`  ${cleanLine(model)} — ${usageLine(u)}`);
  lines.push(`${pc.bold('Review')}    sopworks review --usage ${cleanLine(shown)}  (usage per role and step; the record: ${path.join(shown, '.sopworks')}/)`);
  return lines.join('\n');
}

/** "27,952 tokens, cost $0.0123, 12.4s — 23 calls, 23,725 prompt, 4,227 completion; 1,024 cached, 4.3%" (the time when given). */
function usageLine(u: UsageTotals, wallMs?: number): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const [cached, rate] = cachedCells(u);
  const cache = cached === '—' ? '' : `; ${n(Number(cached))} cached, ${rate}`;
  const time = wallMs === undefined ? '' : `, ${(wallMs / 1000).toFixed(1)}s`;
  return `${n(u.promptTokens + u.completionTokens)} tokens, cost ${formatUsd(u.costUsd)}${time} — ${n(u.calls)} call${u.calls === 1 ? '' : 's'}, ${n(u.promptTokens)} prompt, ${n(u.completionTokens)} completion${cache}`;
}

/** The prompt tokens a cache served and the hit rate, as the provider reported them; "—" where it said nothing. */
export const cachedCells = (u: UsageTotals): [string, string] => {
  const rate = cacheHitRate(u);
  return rate === null ? ['—', '—'] : [String(u.cachedPromptTokens), `${(100 * rate).toFixed(1)}%`];
};
