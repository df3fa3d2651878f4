/**
 * A run's exchange log, from what a person names on a bench's command line: a project folder (its
 * .sopworks/exchanges.jsonl and run.json — a change run's work tree too), an exchanges.jsonl, or a scenario
 * file (`--record` output, examples/*.yaml), replayed first into a temporary folder with the scripted
 * model — a recorded run's replies, sent this version's prompts. A change's scenario (its first reply
 * writes the change request) is replayed by `sopworks change` on a repository made of the files of the
 * folder given as `repo` (one commit, as a clone would be). Read by bench:reviews and bench:cache.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { ExchangeRecord } from '../src/capabilities/model/exchange-record.ts';
import { readAppendLog } from '../src/ground/files/append-log.ts';

const exec = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RunExchanges {
  /** The argument's base name, without its extension. */
  name: string;
  /** The run's outcome (run.json), when the folder has one. */
  outcome: string | null;
  records: ExchangeRecord[];
}

/** The exchanges of a RUN argument; a scenario's replay folder is removed after. `repo`: the files a change's scenario is replayed on. */
export async function runExchanges(arg: string, repo: string | null = null): Promise<RunExchanges> {
  const name = path.basename(arg).replace(/\.(ya?ml|json|jsonl)$/, '');
  if (/\.(ya?ml|json)$/.test(arg)) {
    const out = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-bench-run-'));
    try {
      const change = await isChangeScenario(arg);
      if (change && repo === null)
        throw new Error(`${arg} is a change's scenario: name the repository it changed with --repo DIR (e.g. test/fixtures/repos/pinojs-redact)`);
      return await projectExchanges(name, await replay(arg, out, change ? await repositoryOf(repo!, out) : null));
    } finally {
      await fs.rm(out, { recursive: true, force: true });
    }
  }
  if ((await fs.stat(arg)).isDirectory()) return projectExchanges(name, arg);
  return { name, outcome: null, records: await exchanges(arg) };
}

async function projectExchanges(name: string, project: string): Promise<RunExchanges> {
  const state = path.join(project, '.sopworks');
  const run = await fs.readFile(path.join(state, 'run.json'), 'utf8').then(
    (text) => JSON.parse(text) as { outcome?: string },
    () => null,
  );
  return { name, outcome: run?.outcome ?? null, records: await exchanges(path.join(state, 'exchanges.jsonl')) };
}

async function exchanges(log: string): Promise<ExchangeRecord[]> {
  const { records } = await readAppendLog(log);
  return records.map((r) => ExchangeRecord.parse(r));
}

/** A change's scenario opens with the change request; a new project's with the PRD (or a question). */
async function isChangeScenario(file: string): Promise<boolean> {
  const scenario = parse(await fs.readFile(file, 'utf8')) as { replies?: { action?: string }[] } | null;
  return scenario?.replies?.[0]?.action === 'write_change_request';
}

/** The files of `dir` made a git repository of one commit, beside the replay's output folder. */
async function repositoryOf(dir: string, out: string): Promise<string> {
  const repo = path.join(out, '..', `${path.basename(out)}-repo`);
  await fs.cp(dir, repo, { recursive: true });
  const git = (...args: string[]) => exec('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: repo });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-q', '-m', `${path.basename(dir)} as published`);
  return repo;
}

/**
 * Replays a scenario into `out` with the scripted model — a new project, or a change of `repo`; the
 * project (or work tree) it made. A run that ends failed still has its exchanges.
 */
async function replay(scenario: string, out: string, repo: string | null): Promise<string> {
  const how = repo === null ? ['run'] : ['change', repo];
  try {
    await exec(process.execPath, [path.join(ROOT, 'bin', 'sopworks.js'), ...how, '--llm', `scripted:${path.resolve(scenario)}`, '--out', out, '--json'], {
      cwd: out,
      maxBuffer: 64 * 1024 * 1024,
    }).catch(() => undefined);
  } finally {
    if (repo !== null) await fs.rm(repo, { recursive: true, force: true });
  }
  const [project] = await fs.readdir(out);
  if (!project) throw new Error(`replaying ${scenario} made no project`);
  return path.join(out, project);
}
