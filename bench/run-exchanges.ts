/**
 * A run's exchange log, from what a person names on a bench's command line: a project folder (its
 * .sopworks/exchanges.jsonl and run.json — a change run's work tree too), an exchanges.jsonl, or a scenario
 * file (`--record` output, examples/*.yaml) of a new project, replayed first into a temporary folder with
 * the scripted model — a recorded run's replies, sent this version's prompts. Read by bench:reviews and
 * bench:cache.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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

/** The exchanges of a RUN argument; a scenario's replay folder is removed after. */
export async function runExchanges(arg: string): Promise<RunExchanges> {
  const name = path.basename(arg).replace(/\.(ya?ml|json|jsonl)$/, '');
  if (/\.(ya?ml|json)$/.test(arg)) {
    const out = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-bench-run-'));
    try {
      return await projectExchanges(name, await replay(arg, out));
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

/** Replays a scenario into `out` with the scripted model; the project it made. A run that ends failed still has its exchanges. */
async function replay(scenario: string, out: string): Promise<string> {
  await exec(process.execPath, [path.join(ROOT, 'bin', 'sopworks.js'), 'run', '--llm', `scripted:${path.resolve(scenario)}`, '--out', out, '--json'], {
    cwd: out,
    maxBuffer: 64 * 1024 * 1024,
  }).catch(() => undefined);
  const [project] = await fs.readdir(out);
  if (!project) throw new Error(`replaying ${scenario} made no project`);
  return path.join(out, project);
}
