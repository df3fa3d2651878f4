/** `sopworks status [dir]`: the runs under a folder, with their outcome, last step and usage. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { readAppendLog } from '../../ground/files/append-log.ts';
import { Envelope } from '../../engine/board/message.ts';
import { readRunRecord, type RunRecord } from '../../company/run-record.ts';
import { lockOwner } from '../../engine/run/run-lock.ts';
import { STATE_DIR } from '../../capabilities/repository/workspace.ts';
import type { Output } from './output.ts';
import { describeFindings, inspectProject } from '../../host/git/tamper-check.ts';
import { formatUsd } from '../../capabilities/model/prices.ts';

interface RunStatus {
  name: string;
  outcome: string;
  lastStep: string;
  tokens: string;
}

async function statusOf(projectDir: string): Promise<RunStatus | null> {
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
  const total = record.usage?.total;
  return {
    name: path.basename(projectDir),
    outcome: running ? 'running' : (record.outcome ?? 'cut off (resumable)'),
    lastStep: last?.success ? `${last.data.from} → ${last.data.type} (${last.data.id})` : '—',
    tokens: total ? `${total.calls} calls, ${total.promptTokens + total.completionTokens} tokens, cost ${formatUsd(total.costUsd)}` : '—',
  };
}

export async function statusCommand(dir: string, io: Output): Promise<number> {
  const root = path.resolve(dir);
  const single = await statusOf(root);
  const entries = single
    ? [root]
    : (await fs.readdir(root, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory()).map((e) => path.join(root, e.name));
  const rows = (await Promise.all(entries.map(statusOf))).filter((r): r is RunStatus => r !== null).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) for (const line of describeFindings(path.basename(entry), await inspectProject(entry))) io.err(`warning: ${line}`);
  if (rows.length === 0) {
    io.out(`No sopworks runs in ${root}.`);
    return 0;
  }
  const header: RunStatus = { name: 'project', outcome: 'outcome', lastStep: 'last step', tokens: 'usage' };
  const all = [header, ...rows];
  const width = (key: keyof RunStatus) => Math.max(...all.map((r) => r[key].length));
  for (const row of all) {
    io.out([row.name.padEnd(width('name')), row.outcome.padEnd(width('outcome')), row.lastStep.padEnd(width('lastStep')), row.tokens].join('  ').trimEnd());
  }
  return 0;
}
