/**
 * `npm run bench:scale`: many runs through the job queue — a real Redis (redis-server on a free port),
 * 1, 2 and 4 real worker processes (bench/scale-worker.ts: the `sopworks worker` command), each running
 * several runs at once, on the scripted model whose every reply must first pass a local endpoint that
 * holds it for a simulated latency and enforces a requests-per-minute limit with 429s
 * (bench/rpm-endpoint.ts). Three measures, each against its target:
 *
 * 1. below the limit: runs per minute at 4 workers / at 1 worker ≥ 3.2;
 * 2. at the limit (4 workers, SOPWORKS_RPM = the endpoint's limit): requests per minute used while runs
 *    were waiting ≥ 90 % of the limit, no run failed, 429s ≤ 5 % of the requests (no retry storm);
 * 3. orchestration overhead per model call in a long-lived process (the worker's situation: the second
 *    and later runs of a process) ≤ 5 ms, at every project size of `npm run bench` (its mix graph).
 *
 * Every phase's row carries the machine's load and the CPU time the hypervisor stole while it ran: the
 * ratios only mean something on a quiet machine. A run that fails is never a figure: the benchmark stops
 * at the first phase with a failed run, prints why its runs failed (grouped by reason) and exits 1.
 *
 *   npm run bench:scale -- [--latency-ms 1000] [--runs-per-worker 8] [--concurrency 4] [--workers 1,2,4]
 *                          [--limit-rpm 600] [--limit-runs 40] [--sizes 5,10,20,40] [--repeat 1]
 *                          [--sops bench/sops] [--only-overhead true] [--json FILE]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { z } from 'zod';
import { startRedis } from '../test/helpers/redis-server.ts';
import { watchSteal } from './cpu-steal.ts';
import { makeGraph, width } from './graphs.ts';
import { startRpmEndpoint } from './rpm-endpoint.ts';
import { type PhaseResult, QUEUE_NAME, ROOT, round, runPhase } from './scale-phase.ts';
import { syntheticScenario } from './scenario.ts';
import { runSynthetic } from './synthetic-run.ts';

const USAGE =
  'usage: npm run bench:scale -- [--latency-ms 1000] [--runs-per-worker 8] [--concurrency 4] [--workers 1,2,4] [--limit-rpm 600] [--limit-runs 40] [--sizes 5,10,20,40] [--repeat 1] [--sops bench/sops] [--only-overhead true] [--json FILE]';
const List = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'a comma-separated list of whole numbers')
  .transform((v) => v.split(',').map(Number));

const Options = z.object({
  'latency-ms': z.coerce.number().int().min(0).default(1000),
  'runs-per-worker': z.coerce.number().int().min(1).default(8),
  concurrency: z.coerce.number().int().min(1).default(4),
  workers: List.refine((l) => l.every((n) => n >= 1), 'at least one worker').default([1, 2, 4]),
  'limit-rpm': z.coerce.number().int().min(1).default(600),
  'limit-runs': z.coerce.number().int().min(1).default(40),
  sizes: List.refine((l) => l.every((n) => n >= 3), 'a project has at least 3 files').default([5, 10, 20, 40]),
  repeat: z.coerce.number().int().min(1).default(1),
  sops: z
    .string()
    .min(1)
    .default(path.join(ROOT, 'bench', 'sops')),
  /** Only the overhead in a long-lived process: what to profile (`node --cpu-prof --import tsx bench/scale.ts --only-overhead true`). */
  'only-overhead': z.enum(['true', 'false']).default('false'),
  json: z.string().optional(),
});
type Options = z.infer<typeof Options>;

function readOptions(): Options | null {
  try {
    const { values } = parseArgs({ options: Object.fromEntries(Object.keys(Options.shape).map((k) => [k, { type: 'string' }])) as never });
    const parsed = Options.safeParse(values);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    console.error(`bench:scale: --${String(issue.path[0])}: ${issue.message}\n${USAGE}`);
  } catch (error) {
    console.error(`bench:scale: ${(error as Error).message}\n${USAGE}`);
  }
  return null;
}

interface OverheadRow {
  files: number;
  width: number;
  calls: number;
  wallMs: number;
  overheadMsPerCall: number;
  stealPct: number | null;
}

async function overheadInOneProcess(sizes: number[], repeat: number): Promise<OverheadRow[]> {
  const latency = { fixedMs: 200, perTokenMs: 0.8 };
  const rows: OverheadRow[] = [];
  // The first run of a process pays for loading and compiling; a worker pays it once, not per run.
  await runSynthetic(syntheticScenario(makeGraph('mix', 5), 'mix'), { latency, concurrency: 4 });
  for (const files of sizes) {
    const graph = makeGraph('mix', files);
    const runs: OverheadRow[] = [];
    // With --repeat N, the run with the median overhead is the row: one run on a busy machine can be off by far.
    for (let i = 0; i < repeat; i++) {
      const steal = watchSteal();
      const { result, provider, started, ended } = await runSynthetic(syntheticScenario(graph, 'mix'), { latency, concurrency: Math.max(4, width(graph)) });
      if (result.outcome !== 'done') throw new Error(`the ${files}-file run ended ${result.outcome}: ${result.reason}`);
      const calls = result.usage.total().calls;
      const wallMs = ended - started;
      runs.push({ files, width: width(graph), calls, wallMs, overheadMsPerCall: round((wallMs - provider.busyMs()) / calls, 2), stealPct: steal() });
    }
    runs.sort((a, b) => a.overheadMsPerCall - b.overheadMsPerCall);
    rows.push(runs[Math.floor(runs.length / 2)]!);
  }
  return rows;
}

function targetsOf(below: PhaseResult[], at: PhaseResult, overhead: OverheadRow[], options: Options) {
  const one = below.find((r) => r.workers === 1);
  const most = below.at(-1)!;
  const speedup = one && most.workers > 1 ? round(most.runsPerMin / one.runsPerMin, 2) : null;
  // Without runs waiting for a worker, demand never reached the limit: more --limit-runs are needed.
  const used = at.saturatedCallsPerMin === null ? null : round(at.saturatedCallsPerMin / options['limit-rpm'], 3);
  const requests = at.refused + Math.round((at.callsPerMin * at.wallMs) / 60_000);
  return [
    {
      target: `runs/min at ${most.workers} workers ÷ at 1 worker ≥ ${round(most.workers * 0.8, 2)} (below the limit)`,
      value: speedup === null ? 'not measured (--workers needs 1 and more)' : String(speedup),
      met: speedup !== null && speedup >= most.workers * 0.8,
    },
    {
      target: '≥ 90 % of the allowed requests/min used at the limit',
      value: used === null ? 'not measured: no run waited for a worker (raise --limit-runs)' : `${round(used * 100, 1)} %`,
      met: used !== null && used >= 0.9,
    },
    {
      target: 'no run failed, 429s ≤ 5 % of requests at the limit',
      value: `${at.failed} failed, ${at.refused} × 429 of ${requests}`,
      met: at.failed === 0 && at.refused <= 0.05 * requests,
    },
    {
      target: 'overhead ≤ 5 ms per call in a long-lived process, every size',
      value: overhead.map((r) => `${r.files}: ${r.overheadMsPerCall}`).join(', '),
      met: overhead.every((r) => r.overheadMsPerCall <= 5),
    },
  ];
}

function report(machine: string, options: Options, below: PhaseResult[], at: PhaseResult, overhead: OverheadRow[]): string[] {
  const phases = [...below.map((r) => ['below the limit', r, '-'] as const), ['at the limit', at, String(options['limit-rpm'])] as const];
  return [
    `Machine: ${machine}`,
    `Endpoint latency ${options['latency-ms']} ms per call; ${options.concurrency} runs at once per worker; scripted eval scenarios on ${path.relative(ROOT, options.sops) || '.'} (11 calls a run).`,
    '',
    '| phase | workers | runs | failed | wall s | runs/min | calls/min | calls/min while saturated | RPM limit | 429s | retries | limiter waits | load 1 min (start → end) | steal % |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...phases.map(
      ([name, r, limit]) =>
        `| ${name} | ${r.workers} | ${r.runs} | ${r.failed} | ${(r.wallMs / 1000).toFixed(1)} | ${r.runsPerMin} | ${r.callsPerMin} | ${r.saturatedCallsPerMin ?? 'n/a'} | ${limit} | ${r.refused} | ${r.retries} | ${r.limiterWaits} | ${r.load[0]} → ${r.load[1]} | ${r.stealPct ?? 'n/a'} |`,
    ),
    '',
    '| files (mix) | width | calls | wall ms | overhead ms/call (long-lived process) | steal % |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
    ...overhead.map((r) => `| ${r.files} | ${r.width} | ${r.calls} | ${r.wallMs} | ${r.overheadMsPerCall} | ${r.stealPct ?? 'n/a'} |`),
    '',
    '| target | measured | met |',
    '| --- | --- | --- |',
    ...targetsOf(below, at, overhead, options).map((t) => `| ${t.target} | ${t.value} | ${t.met ? 'yes' : 'NO'} |`),
  ];
}

/** A phase whose runs failed measured nothing: the benchmark says why and stops with exit code 1. */
function stopOnFailures(result: PhaseResult, name: string): boolean {
  if (result.failed === 0) return false;
  const lines = result.failures.map((f) => `- ${f.runs} run(s): ${f.reason}`);
  process.stdout.write(
    [`${result.failed} of ${result.runs} runs failed ${name} with ${result.workers} worker(s); nothing is measured. Why they failed:`, ...lines].join('\n') +
      '\n',
  );
  process.exitCode = 1;
  return true;
}

async function main(): Promise<void> {
  const options = readOptions();
  if (!options) {
    process.exitCode = 2;
    return;
  }
  if (options['only-overhead'] === 'true') {
    const rows = await overheadInOneProcess(options.sizes, options.repeat);
    process.stdout.write(
      rows
        .map((r) => `${r.files} files (mix): ${r.calls} calls, ${r.wallMs} ms, overhead ${r.overheadMsPerCall} ms/call, steal ${r.stealPct ?? 'n/a'} %`)
        .join('\n') + '\n',
    );
    return;
  }
  const redis = await startRedis();
  const endpoint = await startRpmEndpoint(options['latency-ms']);
  const queue = new Queue(QUEUE_NAME, { connection: { host: '127.0.0.1', port: redis.port } });
  const out = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-scale-'));
  try {
    const phase = (workers: number, runs: number, rpm: number | null) =>
      runPhase(redis, queue, endpoint, { workers, runs, rpm, concurrency: options.concurrency, sops: path.resolve(options.sops), out });
    const below: PhaseResult[] = [];
    for (const workers of options.workers) {
      below.push(await phase(workers, workers * options['runs-per-worker'], null));
      process.stderr.write(`below the limit, ${workers} worker(s): ${JSON.stringify(below.at(-1))}\n`);
      if (stopOnFailures(below.at(-1)!, 'below the limit')) return;
    }
    const at = await phase(Math.max(...options.workers), options['limit-runs'], options['limit-rpm']);
    process.stderr.write(`at the limit: ${JSON.stringify(at)}\n`);
    if (stopOnFailures(at, 'at the limit')) return;
    const overhead = await overheadInOneProcess(options.sizes, options.repeat);
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.versions.node}, load ${load} at the end`;
    process.stdout.write(report(machine, options, below, at, overhead).join('\n') + '\n');
    const targets = targetsOf(below, at, overhead, options);
    if (options.json) await fs.writeFile(options.json, JSON.stringify({ machine, options, below, at, overhead, targets }, null, 2) + '\n');
  } finally {
    await queue.close();
    await endpoint.close();
    await redis.stop();
    await fs.rm(out, { recursive: true, force: true });
  }
}

await main().catch((error: unknown) => {
  console.error(`bench:scale: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
