/**
 * What a run of a repeated or chaos suite is judged by, beyond the table's measures: the git tree it
 * ended with (to tell a run that made exactly what the clean run made from one that made something
 * else), the faults injected into its replies (from its exchange log) and whether the gateway made of
 * each what its class calls for, and its re-asks and transport retries.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { git } from '../../host/git/git-process.ts';
import { readRunRecord } from '../../engine/run/run-record.ts';
import { STATE_DIR } from '../../capabilities/repository/workspace.ts';
import { parseJsonLines } from '../review/json-lines.ts';
import type { InjectedFaultRecord } from './robustness.ts';

export interface RunFacts {
  outcome: string | null;
  tree: string | null;
  faults: InjectedFaultRecord[];
  reasks: number;
  retries: number;
  tokens: number;
}

const Exchange = z
  .object({
    role: z.string(),
    action: z.string(),
    key: z.string().nullable(),
    attempt: z.number(),
    ok: z.boolean(),
    injected: z.object({ fault: z.string(), expect: z.enum(['accepted', 'reasked', 'retried']) }).optional(),
  })
  .passthrough();

export async function runFacts(projectDir: string): Promise<RunFacts> {
  const stateDir = path.join(projectDir, STATE_DIR);
  const record = await readRunRecord(stateDir).catch(() => null);
  const total = record?.usage?.total;
  return {
    outcome: record?.outcome ?? null,
    tree: await treeOf(projectDir),
    faults: await injectedFaults(path.join(stateDir, 'exchanges.jsonl')),
    reasks: total?.repairs ?? 0,
    retries: total?.retries ?? 0,
    tokens: (total?.promptTokens ?? 0) + (total?.completionTokens ?? 0),
  };
}

async function treeOf(projectDir: string): Promise<string | null> {
  const result = await git(projectDir, ['rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { okCodes: [1, 128] }).catch(() => null);
  return result && result.code === 0 ? result.stdout.trim() : null;
}

async function injectedFaults(file: string): Promise<InjectedFaultRecord[]> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  return parseJsonLines(text, file).records.flatMap(({ value }) => {
    const parsed = Exchange.safeParse(value);
    if (!parsed.success || !parsed.data.injected) return [];
    const { role, action, key, attempt, ok, injected } = parsed.data;
    // A spoiled reply that keeps its meaning, or a server fault retried, must end in a valid reply; the rest re-asked.
    const handled = injected.expect === 'reasked' ? !ok : ok;
    return [{ ...injected, role, action, key, attempt, handled }];
  });
}
