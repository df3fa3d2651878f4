/**
 * One synthetic project through the real company (startRun, in-process) into a temp folder that is
 * removed afterwards, on the benchmark's simulated model: what `npm run bench` and `bench:gaps` run.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scenario } from '../src/capabilities/model/scenario.ts';
import { loadPolicy } from '../src/capabilities/policy/load-policy.ts';
import type { RunResult } from '../src/company/finish-run.ts';
import { loadCompany } from '../src/company/load-company.ts';
import type { RunEvent } from '../src/company/run-events.ts';
import { startRun } from '../src/company/start-run.ts';
import { type Latency, LatencyProvider } from './latency-provider.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface SyntheticRun {
  result: RunResult;
  provider: LatencyProvider;
  /** When startRun was called and when it returned (ms since the epoch). */
  started: number;
  ended: number;
}

export async function runSynthetic(
  scenario: Scenario,
  options: { latency: Latency; concurrency: number; onEvent?: (event: RunEvent) => void; rolesDir?: string },
): Promise<SyntheticRun> {
  const company = await loadCompany(path.join(ROOT, 'bench', 'sops'), options.rolesDir ?? path.join(ROOT, 'roles'));
  const policy = await loadPolicy(path.join(ROOT, 'sops'));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-bench-'));
  const provider = new LatencyProvider(scenario, options.latency);
  try {
    const started = Date.now();
    const result = await startRun({
      spec: scenario.spec!,
      project: scenario.name!,
      projectDir: path.join(dir, scenario.name!),
      company,
      provider,
      llm: { kind: 'scripted', file: 'bench' },
      maxRepairs: 2,
      policy,
      concurrency: options.concurrency,
      onEvent: options.onEvent,
    });
    return { result, provider, started, ended: Date.now() };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
