/** Runs the company in-process on a scenario (object or file), into a fresh temp folder. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { Scenario, ScriptedProvider } from '../../src/capabilities/model/index.ts';
import { loadCompany, type RunEvent, type RunResult, startRun } from '../../src/company/index.ts';
import { DEMO, ROLES, SOPS } from './paths.ts';
import { tempDir } from './temp-dir.ts';

export async function demoScenario(): Promise<Scenario> {
  return Scenario.parse(parse(await fs.readFile(DEMO, 'utf8')));
}

/** A demo reply asked for only with --clarify or after a person's rejection (its note says "only …"): a plain run leaves it. */
export const onlyWhenAsked = (reply: { note?: string | undefined }): boolean => /^only /.test(reply.note ?? '');

export interface CompanyRun {
  result: RunResult;
  project: string;
  events: RunEvent[];
  provider: ScriptedProvider;
}

export async function runScenario(
  scenario: Scenario,
  options: { sops?: string; roles?: string; latencyMs?: number; concurrency?: number; engineers?: number } = {},
): Promise<CompanyRun> {
  const company = await loadCompany(options.sops ?? SOPS, options.roles ?? ROLES);
  const project = path.join(await tempDir(), scenario.name ?? 'project');
  const provider = new ScriptedProvider('scripted:test', scenario, options.latencyMs ?? 0);
  const events: RunEvent[] = [];
  const result = await startRun({
    llm: { kind: 'scripted', file: 'scenario' },
    spec: scenario.spec ?? 'a test project',
    project: path.basename(project),
    projectDir: project,
    company,
    provider,
    maxRepairs: 2,
    concurrency: options.concurrency,
    engineers: options.engineers,
    onEvent: (e) => events.push(e),
  });
  return { result, project, events, provider };
}

/** Replaces the reply of the n-th entry matching role/action(/key). */
export function replaceReply(scenario: Scenario, match: { role: string; action: string; key?: string }, reply: Scenario['replies'][number], nth = 0): Scenario {
  let seen = -1;
  return {
    ...scenario,
    replies: scenario.replies.map((r) => {
      if (r.role === match.role && r.action === match.action && (match.key === undefined || r.key === match.key) && ++seen === nth) return reply;
      return r;
    }),
  };
}
