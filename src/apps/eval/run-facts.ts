/**
 * What a run of a repeated or chaos suite is judged by, beyond the table's measures: the git tree it
 * ended with (to tell a run that made exactly what the clean run made from one that made something
 * else), the faults injected into its replies (from its exchange log) and whether the gateway made of
 * each what its class calls for, and its re-asks and transport retries.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { STATE_DIR } from '../../capabilities/repository/index.ts';
import { readRunRecord } from '../../company/index.ts';
import { git } from '../../host/git/index.ts';
import { parseJsonLines } from '../review/index.ts';
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
    reusedReply: z.boolean().optional(),
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
  const records = parseJsonLines(text, file).records.flatMap(({ value }) => {
    const parsed = Exchange.safeParse(value);
    return parsed.success ? [parsed.data] : [];
  });
  return records.flatMap((record, index) => {
    if (!record.injected) return [];
    const { role, action, key, attempt, ok, injected } = record;
    // The scenario's own reply after the fault, when the gateway was asked again: its verdict on it.
    const again = records.slice(index + 1).find((r) => r.role === role && r.action === action && r.key === key && r.attempt === attempt + 1 && r.reusedReply);
    return [{ ...injected, role, action, key, attempt, handled: handledAsItsClassSays(injected.expect, ok, again?.ok ?? null) }];
  });
}

/**
 * A lost meaning must be re-asked; a kept one, or a server fault retried, must end in a valid reply —
 * unless the scenario's own reply was refused as well (a reply the scenario means to be refused, say by
 * the policy): then the refusal was the reply's, not the fault's.
 */
function handledAsItsClassSays(expect: 'accepted' | 'reasked' | 'retried', ok: boolean, scenarioReplyOk: boolean | null): boolean {
  if (expect === 'reasked') return !ok;
  return ok || scenarioReplyOk === false;
}
