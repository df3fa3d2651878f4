/**
 * `npm run bench:scale`: many runs through the job queue — a real Redis (redis-server on a free port),
 * 1, 2 and 4 real worker processes (bench/scale-worker.ts), each running several runs at once, on the
 * scripted model whose every reply must first pass a local endpoint that holds it for a simulated latency
 * and enforces a requests-per-minute limit with 429s (bench/rpm-endpoint.ts). Three measures, each
 * against its target:
 *
 * 1. below the limit: runs per minute at 4 workers / at 1 worker ≥ 3.2;
 * 2. at the limit (4 workers, SOPWORKS_RPM = the endpoint's limit): requests per minute used while runs
 *    were waiting ≥ 90 % of the limit, no run failed, 429s ≤ 5 % of the requests (no retry storm);
 * 3. orchestration overhead per model call in a long-lived process (the worker's situation: the second
 *    and later runs of a process) ≤ 5 ms, at every project size of `npm run bench` (its mix graph).
 *
 *   npm run bench:scale -- [--latency-ms 1000] [--runs-per-worker 8] [--concurrency 4] [--limit-rpm 600]
 *                          [--limit-runs 40] [--sizes 5,10,20,40] [--repeat 1] [--json FILE]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { z } from 'zod';
import { QUEUE_NAME, type JobData, type JobFields } from '../src/apps/queue/job-data.ts';
import { signJob } from '../src/apps/queue/job-signature.ts';

/** The queue's secret for this benchmark's submitter and workers. */
const SECRET = randomBytes(32).toString('hex');
import { SOPWORKS_VERSION } from '../src/ground/version.ts';
import { startRedis, type TestRedis } from '../test/helpers/redis-server.ts';
import { makeGraph, width } from './graphs.ts';
import { startRpmEndpoint, type RpmEndpoint } from './rpm-endpoint.ts';
import { syntheticScenario } from './scenario.ts';
import { runSynthetic } from './synthetic-run.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCENARIOS = ['roman', 'caesar', 'vowels', 'fizzbuzz', 'slugify', 'leapyear', 'colsum', 'fibonacci', 'palindrome', 'temperature'];

const Options = z.object({
  latencyMs: z.coerce.number().int().min(0).default(1000),
  runsPerWorker: z.coerce.number().int().min(1).default(8),
  concurrency: z.coerce.number().int().min(1).default(4),
  limitRpm: z.coerce.number().int().min(1).default(600),
  limitRuns: z.coerce.number().int().min(1).default(40),
  sizes: z
    .string()
    .regex(/^\d+(,\d+)*$/)
    .default('5,10,20,40'),
  repeat: z.coerce.number().int().min(1).default(1),
  json: z.string().optional(),
});
type Options = z.infer<typeof Options>;

interface WorkerProcess {
  child: ChildProcess;
  output: string;
}

function startWorkers(count: number, env: NodeJS.ProcessEnv, concurrency: number): Promise<WorkerProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'scale-worker.ts'), String(concurrency)], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const worker: WorkerProcess = { child, output: '' };
      return new Promise<WorkerProcess>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          worker.output += chunk.toString();
          if (worker.output.includes('ready\n')) resolve(worker);
        });
        child.on('exit', (code) => reject(new Error(`a worker exited early (${code})`)));
      });
    }),
  );
}

async function stopWorkers(workers: WorkerProcess[]): Promise<{ retries: number; limiterWaits: number }> {
  const totals = { retries: 0, limiterWaits: 0 };
  await Promise.all(
    workers.map(async (w) => {
      w.child.removeAllListeners('exit');
      const exited = new Promise((resolve) => w.child.once('exit', resolve));
      w.child.kill('SIGTERM');
      await exited;
      const last = w.output.trim().split('\n').at(-1) ?? '{}';
      const figures = JSON.parse(last.startsWith('{') ? last : '{}') as { retries?: number; limiterWaits?: number };
      totals.retries += figures.retries ?? 0;
      totals.limiterWaits += figures.limiterWaits ?? 0;
    }),
  );
  return totals;
}

interface PhaseResult {
  workers: number;
  runs: number;
  failed: number;
  wallMs: number;
  runsPerMin: number;
  callsPerMin: number;
  /** Calls per minute while runs were still waiting for a worker (the queue not yet empty); null when none ever waited. */
  saturatedCallsPerMin: number | null;
  refused: number;
  retries: number;
  limiterWaits: number;
}

async function phase(
  redis: TestRedis,
  queue: Queue,
  endpoint: RpmEndpoint,
  options: Options,
  workers: number,
  runs: number,
  rpm: number | null,
  out: string,
): Promise<PhaseResult> {
  await queue.obliterate({ force: true });
  endpoint.reset();
  endpoint.setLimit(rpm);
  const env = {
    ...process.env,
    SOPWORKS_REDIS_URL: redis.url,
    BENCH_ENDPOINT: endpoint.url,
    SOPWORKS_RPM: rpm === null ? '' : String(rpm),
    SOPWORKS_MODEL: 'bench-model',
    SOPWORKS_QUEUE_SECRET: SECRET,
    BENCH_RUNS_ROOT: out,
    NO_COLOR: '1',
  };
  const procs = await startWorkers(workers, env, options.concurrency);
  const dir = path.join(out, `w${workers}-${rpm ?? 'free'}`);
  const started = Date.now();
  await queue.addBulk(
    Array.from({ length: runs }, (_, i) => {
      const scenario = SCENARIOS[i % SCENARIOS.length]!;
      const jobId = `${path.basename(dir)}-${i}`;
      const fields: JobFields = {
        version: SOPWORKS_VERSION,
        name: `${scenario}-${i}`,
        spec: scenario,
        scenario: path.join(ROOT, 'examples', 'eval', `${scenario}.yaml`),
        out: dir,
        llm: null,
        model: null,
        sops: path.join(ROOT, 'bench', 'sops'),
        roles: path.join(ROOT, 'roles'),
        allowUnsandboxed: false,
        submittedAt: new Date().toISOString(),
      };
      const data: JobData = { ...fields, signature: signJob(jobId, fields, SECRET) };
      return { name: data.name, data, opts: { jobId } };
    }),
  );
  let saturatedUntil: number | null = null;
  for (;;) {
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed');
    if (saturatedUntil === null && counts.waiting! + counts.prioritized! + counts.delayed! === 0) saturatedUntil = Date.now();
    if (counts.completed! + counts.failed! >= runs) break;
    await sleep(100);
  }
  const wallMs = Date.now() - started;
  const failed = (await queue.getJobCounts('failed')).failed!;
  const { retries, limiterWaits } = await stopWorkers(procs);
  const calls = endpoint.accepted.length;
  const first = endpoint.accepted[0] ?? started;
  const saturatedCalls = endpoint.accepted.filter((t) => t <= saturatedUntil!).length;
  return {
    workers,
    runs,
    failed,
    wallMs,
    runsPerMin: round((runs / wallMs) * 60_000, 1),
    callsPerMin: round((calls / wallMs) * 60_000, 0),
    saturatedCallsPerMin: saturatedUntil! - first < 1000 ? null : round((saturatedCalls / (saturatedUntil! - first)) * 60_000, 0),
    refused: endpoint.refused,
    retries,
    limiterWaits,
  };
}

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

async function overheadInOneProcess(
  sizes: number[],
  repeat: number,
): Promise<{ files: number; width: number; calls: number; wallMs: number; overheadMsPerCall: number }[]> {
  const latency = { fixedMs: 200, perTokenMs: 0.8 };
  const rows = [];
  // The first run of a process pays for loading and compiling; a worker pays it once, not per run.
  await runSynthetic(syntheticScenario(makeGraph('mix', 5), 'mix'), { latency, concurrency: 4 });
  for (const files of sizes) {
    const graph = makeGraph('mix', files);
    const runs = [];
    // With --repeat N, the run with the median overhead is the row: one run on a busy machine can be off by far.
    for (let i = 0; i < repeat; i++) {
      const { result, provider, started, ended } = await runSynthetic(syntheticScenario(graph, 'mix'), { latency, concurrency: Math.max(4, width(graph)) });
      if (result.outcome !== 'done') throw new Error(`the ${files}-file run ended ${result.outcome}: ${result.reason}`);
      const calls = result.usage.total().calls;
      const wallMs = ended - started;
      runs.push({ files, width: width(graph), calls, wallMs, overheadMsPerCall: round((wallMs - provider.busyMs()) / calls, 2) });
    }
    runs.sort((a, b) => a.overheadMsPerCall - b.overheadMsPerCall);
    rows.push(runs[Math.floor(runs.length / 2)]!);
  }
  return rows;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'latency-ms': { type: 'string' },
      'runs-per-worker': { type: 'string' },
      concurrency: { type: 'string' },
      'limit-rpm': { type: 'string' },
      'limit-runs': { type: 'string' },
      sizes: { type: 'string' },
      repeat: { type: 'string' },
      json: { type: 'string' },
    },
  });
  const options = Options.parse({
    latencyMs: values['latency-ms'],
    runsPerWorker: values['runs-per-worker'],
    concurrency: values.concurrency,
    limitRpm: values['limit-rpm'],
    limitRuns: values['limit-runs'],
    sizes: values.sizes,
    repeat: values.repeat,
    json: values.json,
  });
  const redis = await startRedis();
  const endpoint = await startRpmEndpoint(options.latencyMs);
  const queue = new Queue(QUEUE_NAME, { connection: { host: '127.0.0.1', port: redis.port } });
  const out = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-scale-'));
  try {
    const below: PhaseResult[] = [];
    for (const workers of [1, 2, 4]) {
      below.push(await phase(redis, queue, endpoint, options, workers, workers * options.runsPerWorker, null, out));
      process.stderr.write(`below the limit, ${workers} worker(s): ${JSON.stringify(below.at(-1))}\n`);
    }
    const at = await phase(redis, queue, endpoint, options, 4, options.limitRuns, options.limitRpm, out);
    process.stderr.write(`at the limit: ${JSON.stringify(at)}\n`);
    const overhead = await overheadInOneProcess(options.sizes.split(',').map(Number), options.repeat);
    const speedup = round(below[2]!.runsPerMin / below[0]!.runsPerMin, 2);
    // Without runs waiting for a worker, demand never reached the limit: more --limit-runs are needed.
    const used = at.saturatedCallsPerMin === null ? null : round(at.saturatedCallsPerMin / options.limitRpm, 3);
    const targets = [
      { target: 'runs/min at 4 workers ÷ at 1 worker ≥ 3.2 (below the limit)', value: String(speedup), met: speedup >= 3.2 },
      {
        target: '≥ 90 % of the allowed requests/min used at the limit',
        value: used === null ? 'not measured: no run waited for a worker (raise --limit-runs)' : `${round(used * 100, 1)} %`,
        met: used !== null && used >= 0.9,
      },
      {
        target: 'no run failed, 429s ≤ 5 % of requests at the limit',
        value: `${at.failed} failed, ${at.refused} × 429 of ${at.refused + Math.round((at.callsPerMin * at.wallMs) / 60_000)}`,
        met: at.failed === 0 && at.refused <= (0.05 * (at.callsPerMin * at.wallMs)) / 60_000,
      },
      {
        target: 'overhead ≤ 5 ms per call in a long-lived process, every size',
        value: overhead.map((r) => `${r.files}: ${r.overheadMsPerCall}`).join(', '),
        met: overhead.every((r) => r.overheadMsPerCall <= 5),
      },
    ];
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.versions.node}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`;
    const lines = [
      `Machine: ${machine}`,
      `Endpoint latency ${options.latencyMs} ms per call; ${options.concurrency} runs at once per worker; scripted eval scenarios on bench/sops (11 calls a run).`,
      '',
      '| phase | workers | runs | failed | wall s | runs/min | calls/min | calls/min while saturated | RPM limit | 429s | retries | limiter waits |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...[...below.map((r) => ['below the limit', r, '-'] as const), ['at the limit', at, String(options.limitRpm)] as const].map(
        ([name, r, limit]) =>
          `| ${name} | ${r.workers} | ${r.runs} | ${r.failed} | ${(r.wallMs / 1000).toFixed(1)} | ${r.runsPerMin} | ${r.callsPerMin} | ${r.saturatedCallsPerMin ?? 'n/a'} | ${limit} | ${r.refused} | ${r.retries} | ${r.limiterWaits} |`,
      ),
      '',
      '| files (mix) | width | calls | wall ms | overhead ms/call (long-lived process) |',
      '| ---: | ---: | ---: | ---: | ---: |',
      ...overhead.map((r) => `| ${r.files} | ${r.width} | ${r.calls} | ${r.wallMs} | ${r.overheadMsPerCall} |`),
      '',
      '| target | measured | met |',
      '| --- | --- | --- |',
      ...targets.map((t) => `| ${t.target} | ${t.value} | ${t.met ? 'yes' : 'NO'} |`),
    ];
    process.stdout.write(lines.join('\n') + '\n');
    if (options.json) await fs.writeFile(options.json, JSON.stringify({ machine, options, below, at, overhead, targets }, null, 2) + '\n');
  } finally {
    await queue.close();
    await endpoint.close();
    await redis.stop();
    await fs.rm(out, { recursive: true, force: true });
  }
}

await main();
