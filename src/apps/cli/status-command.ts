/**
 * `sopworks status [dir]`: the runs under a folder, with their outcome and why, the gate a run awaiting
 * approval waits on, the last step and usage. `--json`: a line per run, then a summary.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describeQuestions, describeRequest, readOpenQuestions, readPending } from '../../capabilities/approvals/index.ts';
import { formatUsd } from '../../capabilities/model/index.ts';
import { STATE_DIR } from '../../capabilities/repository/index.ts';
import { type RunRecord, readRunRecord } from '../../company/index.ts';
import { Envelope } from '../../engine/board/index.ts';
import { lockOwner } from '../../engine/run/index.ts';
import { readAppendLog } from '../../ground/files/index.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { describeFindings, inspectProject } from '../../host/git/index.ts';
import { commandOutput, type JsonLine, summaryLine, usageJson } from '../console/index.ts';
import type { Output } from './output.ts';

type RunLine = Extract<JsonLine, { type: 'run' }>;

async function statusOf(projectDir: string): Promise<RunLine | null> {
  const stateDir = path.join(projectDir, STATE_DIR);
  let record: RunRecord;
  try {
    record = await readRunRecord(stateDir);
  } catch {
    return null;
  }
  const { records } = await readAppendLog(path.join(stateDir, 'board.jsonl')).catch(() => ({ records: [] as unknown[] }));
  const last = records.length > 0 ? Envelope.safeParse(records.at(-1)) : null;
  const running = (await lockOwner(stateDir)) !== null;
  const awaiting = !running && record.outcome === 'awaiting-approval';
  const pending = awaiting ? await readPending(stateDir).catch(() => []) : [];
  const questions = awaiting ? await readOpenQuestions(stateDir).catch(() => []) : [];
  const gates = [...pending.map(describeRequest), ...questions.map(describeQuestions)];
  const total = record.usage?.total;
  return {
    type: 'run',
    name: path.basename(projectDir),
    dir: projectDir,
    outcome: running ? 'running' : (record.outcome ?? 'cut off'),
    // A resumed run keeps its last outcome and reason in run.json until it ends again.
    reason: running
      ? null
      : record.outcome
        ? (record.reason ?? null)
        : 'the run stopped before its outcome (a crash or a kill); `sopworks resume` continues it',
    gate: gates.length > 0 ? gates.join('; ') : null,
    lastStep: last?.success ? `${last.data.from} → ${last.data.type} (${last.data.id})` : null,
    usage: total ? usageJson(total) : null,
    // The figures are written when the run stops: a run at work shows those of its last stop.
    criteria: record.figures?.criteria ?? null,
  };
}

export async function statusCommand(dir: string, terminal: Output, json = false): Promise<number> {
  const output = commandOutput(terminal, json, 'status');
  const root = path.resolve(dir);
  const single = await statusOf(root);
  const entries = single
    ? [root]
    : (await fs.readdir(root, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory()).map((e) => path.join(root, e.name));
  const rows = (await Promise.all(entries.map(statusOf))).filter((r): r is RunLine => r !== null).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries)
    for (const line of describeFindings(cleanLine(path.basename(entry)), await inspectProject(entry))) terminal.err(`warning: ${line}`);
  if (output.json) {
    for (const row of rows) output.json(row);
    output.json(summaryLine({ command: 'status', exitCode: 0, runs: rows.length }));
    return 0;
  }
  if (rows.length === 0) {
    terminal.out(`No sopworks runs in ${root}.`);
    return 0;
  }
  for (const line of renderStatus(rows)) terminal.out(line);
  return 0;
}

/**
 * The table, and under each run that did not finish done the reason and the gate it waits on. A folder's
 * name, the board's last line and a reason are anyone's text: each is one clean line.
 */
function renderStatus(rows: readonly RunLine[]): string[] {
  const cells = (r: RunLine) => [cleanLine(r.name), r.outcome, criteriaText(r.criteria), cleanLine(r.lastStep ?? '—'), usageText(r.usage)];
  const all = [['project', 'outcome', 'criteria', 'last step', 'usage'], ...rows.map(cells)];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...all.map((c) => c[i]!.length)));
  const line = (c: string[]) => [...[0, 1, 2, 3].map((i) => c[i]!.padEnd(widths[i]!)), c[4]!].join('  ').trimEnd();
  const lines = [line(all[0]!)];
  for (const row of rows) {
    lines.push(line(cells(row)));
    if (row.outcome !== 'done' && row.reason) lines.push(`  why: ${cleanLine(row.reason)}`);
    if (row.criteria && row.criteria.unmet.length > 0) lines.push(`  unmet: ${row.criteria.unmet.map((u) => `${u.id} ${u.status}`).join(', ')}`);
    // Questions are answered by `answer` (which prints them), on the run's page or at a terminal by resume; decisions by approve.
    const how = row.gate?.startsWith('answers to')
      ? `sopworks answer ${cleanLine(row.dir)} shows them and how to answer; or answer them on its page (sopworks serve ${cleanLine(row.dir)}), or resume it at a terminal`
      : `sopworks approve ${cleanLine(row.dir)} (or --reject "…"), then resume`;
    if (row.gate) lines.push(`  waits on: ${cleanLine(row.gate)} — ${how}`);
  }
  return lines;
}

/** "4/5 proven (P0 3/3)", or a dash before any coverage matrix. */
const criteriaText = (c: RunLine['criteria']): string => (c ? `${c.proven}/${c.total} proven (P0 ${c.p0Proven}/${c.p0Total})` : '—');

const usageText = (total: RunLine['usage']): string =>
  total ? `${total.calls} calls, ${total.promptTokens + total.completionTokens} tokens, cost ${formatUsd(total.costUsd)}` : '—';
