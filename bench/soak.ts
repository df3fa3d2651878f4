/**
 * `npm run bench:soak`: many runs through the job queue under faults — a benchmark, not a test. A real
 * Redis with an append-only file, N real `sopworks worker` processes, and while they work:
 *
 * - every --kill-every-ms a worker that is up is killed with -9 and started again;
 * - Redis is restarted twice: once cleanly (SIGTERM, as an operator restarts it) and once crashed
 *   (SIGKILL: what was not yet in the append-only file is lost);
 * - worker 0 reaches Redis through a TCP proxy on loopback, whose line is cut silently (a partition:
 *   nothing gets through, nothing is refused) for longer than the lock, then restored.
 *
 * It ends when every run is done or nothing has moved for --stall-ms — then it first says why: each run
 * not done, its job's state, who holds its lease, what a worker last said of it, and each worker's last
 * lines (soak-report.ts). A worker still running 30 s after the closing SIGTERM is a broken promise too.
 * Every planned fault must have landed before the runs were done. Then it checks what the queue
 * promises: every run done; each run's tree, commit subjects and board identical to an uninterrupted run
 * of the same scenario; exactly one project folder per submitted run; no job lost (every job completed,
 * none failed); no run run to completion twice (the run's own log says how often it concluded done).
 * It prints those counts and the faults it injected, and exits 1 when a promise was broken.
 *
 *   npm run bench:soak -- [--runs 40] [--workers 3] [--concurrency 2] [--lock-ms 5000] [--kill-every-ms 5000]
 *                         [--latency-ms 150] [--stall-ms 300000] [--sops bench/sops] [--json FILE]
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs, promisify } from 'node:util';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { openQueue, type RunQueue } from '../src/apps/queue/run-queue.ts';
import { submitRun } from '../src/apps/queue/submit-run.ts';
import { readAppendLog } from '../src/ground/files/append-log.ts';
import { startRedis } from '../test/helpers/redis-server.ts';
import { startTcpProxy } from '../test/helpers/tcp-proxy.ts';
import { watchSteal } from './cpu-steal.ts';
import { ROOT } from './scale-phase.ts';
import { type Faults, injectFaults, missingFaults } from './soak-faults.ts';
import { printSummary, type SubmittedRun, type Summary, stallReport, type Verdict } from './soak-report.ts';
import { killSlot, SOAK_SECRET, type Stopped, startSlot, stopSlot, type WorkerSlot } from './soak-workers.ts';

const exec = promisify(execFile);
/** How long a worker has to exit after SIGTERM at the end: its runs are done, so it only lets go of its connections. */
const STOP_GRACE_MS = 30_000;
const SCENARIOS = ['roman', 'caesar', 'vowels', 'fizzbuzz', 'slugify', 'leapyear', 'colsum', 'fibonacci', 'palindrome', 'temperature'];
const USAGE =
  'usage: npm run bench:soak -- [--runs 40] [--workers 3] [--concurrency 2] [--lock-ms 5000] [--kill-every-ms 5000] [--latency-ms 150] [--stall-ms 300000] [--sops bench/sops] [--json FILE]';

const Options = z.object({
  runs: z.coerce.number().int().min(1).default(40),
  workers: z.coerce.number().int().min(2).default(3),
  concurrency: z.coerce.number().int().min(1).default(2),
  'lock-ms': z.coerce.number().int().min(1000).default(5000),
  'kill-every-ms': z.coerce.number().int().min(500).default(5000),
  'latency-ms': z.coerce.number().int().min(0).default(150),
  'stall-ms': z.coerce.number().int().min(10_000).default(300_000),
  sops: z
    .string()
    .min(1)
    .default(path.join(ROOT, 'bench', 'sops')),
  json: z.string().optional(),
});
type Options = z.infer<typeof Options>;

interface Facts {
  tree: string;
  subjects: string[];
  boardIds: string[];
}

const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout.trim();
async function facts(project: string): Promise<Facts> {
  const { records } = await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'));
  return {
    tree: await git(project, 'rev-parse', 'HEAD^{tree}'),
    subjects: (await git(project, 'log', '--reverse', '--format=%s')).split('\n'),
    boardIds: (records as { id: string }[]).map((m) => m.id),
  };
}

const scenarioFile = (name: string) => path.join(ROOT, 'examples', 'eval', `${name}.yaml`);

/** Each scenario run once by `sopworks run`, uninterrupted, two at a time. */
async function references(options: Options, dir: string): Promise<Map<string, Facts>> {
  const names = SCENARIOS.slice(0, Math.min(SCENARIOS.length, options.runs));
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of Object.keys(env)) if (name.startsWith('OPENAI_') || name.startsWith('SOPWORKS_')) delete env[name];
  const result = new Map<string, Facts>();
  for (let i = 0; i < names.length; i += 2) {
    await Promise.all(
      names.slice(i, i + 2).map(async (name) => {
        await exec(
          process.execPath,
          [path.join(ROOT, 'bin', 'sopworks.js'), 'run', '--llm', `scripted:${scenarioFile(name)}`, '--sops', options.sops, '--out', dir],
          {
            cwd: ROOT,
            env,
          },
        );
        result.set(name, await facts(path.join(dir, name)));
      }),
    );
  }
  return result;
}

/** Batches of the scenarios, each batch in its own folder: run k of a scenario is <out>/batch-<k>/<scenario>. */
async function submitAll(queue: RunQueue, options: Options, out: string): Promise<SubmittedRun[]> {
  const submitted: SubmittedRun[] = [];
  for (let i = 0; i < options.runs; i++) {
    const scenario = SCENARIOS[i % SCENARIOS.length]!;
    const folder = path.join(out, `batch-${Math.floor(i / SCENARIOS.length)}`);
    const { job } = await submitRun(
      queue,
      {
        name: scenario,
        spec: scenario,
        scenario: scenarioFile(scenario),
        out: folder,
        llm: null,
        model: null,
        sops: options.sops,
        roles: path.join(ROOT, 'roles'),
        allowUnsandboxed: false,
      },
      SOAK_SECRET,
    );
    submitted.push({ name: scenario, scenario, out: folder, jobId: job.id! });
  }
  return submitted;
}

/** Every promise of the queue, checked on the run folders and the queue. */
async function verify(queue: RunQueue, submitted: SubmittedRun[], reference: Map<string, Facts>, slots: WorkerSlot[]): Promise<Verdict> {
  const broken: string[] = [];
  let done = 0;
  let identical = 0;
  const completionsPerRun: Record<string, number> = {};
  for (const run of submitted) {
    const project = path.join(run.out, run.name);
    const key = `${path.basename(run.out)}/${run.name}`;
    const record = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8').catch(() => '{}')) as { outcome?: string };
    if (record.outcome === 'done') done += 1;
    else broken.push(`${key}: outcome ${record.outcome ?? 'none'}`);
    const got = await facts(project).catch(() => null);
    const expected = reference.get(run.scenario)!;
    if (got && JSON.stringify(got) === JSON.stringify(expected)) identical += 1;
    else broken.push(`${key}: ${got ? differences(got, expected) : 'no repository'} (an uninterrupted run's differ)`);
    // The run's own log has a summary for every time a worker brought it to its end. A worker killed
    // right after can lose that line from its buffer (then none is found): only more than one is a fault.
    const log = await fs.readFile(path.join(run.out, 'logs', `${run.name}.log`), 'utf8').catch(() => '');
    completionsPerRun[key] = (log.match(/^Outcome\s+done\b/gm) ?? []).length;
    if (completionsPerRun[key] > 1) broken.push(`${key}: concluded done ${completionsPerRun[key]} times`);
  }
  const foldersPerRun: string[] = [];
  for (const out of new Set(submitted.map((r) => r.out))) {
    const expected = submitted.filter((r) => r.out === out).map((r) => r.name);
    // A batch no worker ever reached has no folder: that is a broken promise to report, not a crash.
    const found = (await fs.readdir(out).catch(() => [] as string[])).filter((f) => f !== 'logs');
    foldersPerRun.push(`${path.basename(out)}: ${found.length} folders for ${expected.length} runs`);
    if (found.sort().join() !== expected.sort().join()) broken.push(`${path.basename(out)}: folders ${found.join(', ')} for runs ${expected.join(', ')}`);
  }
  const jobs = { completed: 0, failed: 0, unfinished: 0, lost: 0 };
  for (const run of submitted) {
    const job = await queue.getJob(run.jobId);
    const state = job ? await job.getState() : 'missing';
    if (state === 'completed') jobs.completed += 1;
    else if (state === 'failed') jobs.failed += 1;
    else if (state === 'missing' || state === 'unknown') jobs.lost += 1;
    else jobs.unfinished += 1;
    if (state !== 'completed') broken.push(`job ${run.jobId}: ${state}${job?.failedReason ? ` (${job.failedReason})` : ''}`);
  }
  const lines = slots.flatMap((s) => s.lines);
  return {
    runs: submitted.length,
    done,
    identical,
    foldersPerRun,
    jobs,
    completionsPerRun,
    handedBack: lines.filter((l) => /: handed back \(/.test(l)).length,
    takenOver: lines.filter((l) => /: resuming /.test(l)).length,
    broken,
  };
}

/** What differs between a run's facts and the reference's, for a person to look into. */
function differences(got: Facts, expected: Facts): string {
  const what: string[] = [];
  if (got.tree !== expected.tree) what.push(`tree ${got.tree.slice(0, 10)} for ${expected.tree.slice(0, 10)}`);
  if (got.subjects.join('\n') !== expected.subjects.join('\n')) {
    const extra = got.subjects.filter((s, i) => s !== expected.subjects[i]);
    what.push(`commits ${got.subjects.length} for ${expected.subjects.length} (first differing: ${extra[0] ?? '-'})`);
  }
  if (got.boardIds.join() !== expected.boardIds.join()) what.push(`board ${got.boardIds.length} messages for ${expected.boardIds.length}`);
  return what.join('; ');
}

function readOptions(): Options | null {
  try {
    const { values } = parseArgs({ options: Object.fromEntries(Object.keys(Options.shape).map((k) => [k, { type: 'string' }])) as never });
    const parsed = Options.safeParse(values);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    console.error(`bench:soak: --${String(issue.path[0])}: ${issue.message}\n${USAGE}`);
  } catch (error) {
    console.error(`bench:soak: ${(error as Error).message}\n${USAGE}`);
  }
  return null;
}

/** The soak's figures, as printed and written to --json. */
function summaryOf(r: {
  load: number;
  steal: number | null;
  options: Options;
  wallMs: number;
  faults: Faults;
  slots: WorkerSlot[];
  verdict: Verdict;
}): Summary & { options: Options } {
  return {
    machine: `${os.cpus().length} CPUs, load ${r.load.toFixed(2)} at the start and ${os.loadavg()[0]!.toFixed(2)} at the end, ${r.steal ?? 'n/a'} % steal`,
    options: r.options,
    wallS: Math.round(r.wallMs / 1000),
    faults: {
      kills: r.faults.kills,
      workerStarts: r.slots.reduce((n, s) => n + s.starts, 0),
      crashes: r.faults.crashes,
      redisRestarts: r.faults.redisRestarts,
      cuts: r.faults.cuts,
    },
    verdict: r.verdict,
    outcome: r.verdict.broken.length === 0 ? 'every promise held' : `${r.verdict.broken.length} broken`,
  };
}

/** What the soak itself found broken besides the runs: a stall, a fault not injected, a worker that would not stop. */
function soakBroken(faults: Faults & { stalled: boolean }, stops: Stopped[], stallMs: number): string[] {
  const broken: string[] = [];
  if (faults.stalled) broken.push(`nothing moved for ${stallMs / 1000} s: the soak stopped waiting (what was not done is listed above)`);
  for (const missing of faults.stalled ? [] : missingFaults(faults))
    broken.push(`${missing} before the runs were done: the soak proved less than it says (a larger --runs or --latency-ms gives the faults time)`);
  for (const stop of stops) if (stop.hung) broken.push(stop.hung);
  const codes = stops.map((s) => s.code);
  if (codes.some((code) => code !== 0 && code !== null)) broken.push(`a worker did not stop cleanly on SIGTERM (exit codes ${codes.join(', ')})`);
  return broken;
}

async function main(): Promise<void> {
  const options = readOptions();
  if (!options) {
    process.exitCode = 2;
    return;
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-soak-'));
  let keep = false;
  await fs.mkdir(path.join(dir, 'redis'));
  const redis = await startRedis({ appendOnly: true, dir: path.join(dir, 'redis') });
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: redis.port });
  const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  connection.on('error', () => {});
  const queue = openQueue(connection);
  queue.on('error', () => {});
  const slots: WorkerSlot[] = Array.from({ length: options.workers }, (_, index) => ({
    index,
    url: index === 0 ? proxy.url('redis') : redis.url,
    child: null,
    ready: false,
    upAt: 0,
    lines: [],
    starts: 0,
  }));
  try {
    process.stderr.write('soak: the uninterrupted reference runs…\n');
    const reference = await references(options, path.join(dir, 'reference'));
    const submitted = await submitAll(queue, options, path.join(dir, 'runs'));
    const steal = watchSteal();
    const load = os.loadavg()[0]!;
    const started = Date.now();
    for (const slot of slots) startSlot(slot, { concurrency: options.concurrency, lockMs: options['lock-ms'], latencyMs: options['latency-ms'] });
    const faults = await injectFaults(slots, redis, proxy, async () => (await queue.getJobCounts('completed')).completed!, {
      runs: options.runs,
      concurrency: options.concurrency,
      lockMs: options['lock-ms'],
      killEveryMs: options['kill-every-ms'],
      latencyMs: options['latency-ms'],
      stallMs: options['stall-ms'],
    });
    const wallMs = Date.now() - started;
    // Read before the workers stop: who holds what, and what each said last, as it was when nothing moved.
    if (faults.stalled) {
      const unanswered = sleep(15_000).then(() => 'Stalled, and the queue did not answer within 15 s: Redis itself is out of reach.');
      process.stdout.write(`${await Promise.race([stallReport(queue, connection, submitted, slots), unanswered])}\n`);
    }
    const stops = await Promise.all(slots.map((slot) => stopSlot(slot, STOP_GRACE_MS)));
    const verdict = await verify(queue, submitted, reference, slots);
    verdict.broken.push(...soakBroken(faults, stops, options['stall-ms']));
    const summary = summaryOf({ load, steal: steal(), options, wallMs, faults, slots, verdict });
    printSummary(summary);
    if (options.json) await fs.writeFile(options.json, JSON.stringify({ ...summary, workerLines: slots.flatMap((s) => s.lines) }, null, 2) + '\n');
    if (verdict.broken.length > 0) {
      process.exitCode = 1;
      keep = true;
    }
  } catch (error) {
    // A crash keeps what was produced, as a broken promise does: the folder is the only trace of why.
    keep = true;
    throw error;
  } finally {
    if (keep) process.stdout.write(`The runs, their logs, the workers' lines and Redis' files are kept for a look: ${dir}\n`);
    await fs.writeFile(path.join(dir, 'worker-lines.log'), slots.flatMap((s) => s.lines).join('\n') + '\n').catch(() => undefined);
    await Promise.all(slots.map(killSlot));
    await queue.close().catch(() => undefined);
    connection.disconnect();
    await proxy.close();
    await redis.stop();
    if (!keep) await fs.rm(dir, { recursive: true, force: true });
  }
}

await main().catch((error: unknown) => {
  console.error(`bench:soak: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
