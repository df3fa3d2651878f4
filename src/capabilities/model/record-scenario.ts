/**
 * `--record FILE`: a run's exchanges as a scenario file for the scripted provider — every attempt of
 * every call, in order, with the spec — so any real run can be replayed offline to the same repository.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import type { ExchangeRecord } from './exchange-record.ts';
import type { Scenario } from './scenario.ts';

export function scenarioFromExchanges(meta: { spec: string; name: string }, exchanges: readonly ExchangeRecord[]): Scenario {
  return {
    spec: meta.spec,
    name: meta.name,
    description: 'Recorded by `sopworks run --record`: every model reply of the run, in order.',
    replies: exchanges.map((r) => ({ role: r.role, action: r.action, ...(r.key === null ? {} : { key: r.key }), reply: r.reply })),
  };
}

export async function writeRecordedScenario(file: string, meta: { spec: string; name: string }, exchanges: readonly ExchangeRecord[]): Promise<void> {
  await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const text = file.endsWith('.json')
    ? JSON.stringify(scenarioFromExchanges(meta, exchanges), null, 2) + '\n'
    : stringify(scenarioFromExchanges(meta, exchanges), { lineWidth: 0, blockQuote: 'literal' });
  await fs.writeFile(file, text);
}
