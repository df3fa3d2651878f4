/**
 * `npm run bench`: synthetic projects — task graphs shaped as a chain, a wide fan, a diamond and a
 * realistic mix, of 5, 10, 20 and 40 files — through the real company, on a scripted model that sleeps
 * a simulated latency (a fixed time plus a time per output token). Each graph runs at concurrency 1 and
 * at a concurrency of at least its width, each run in a process of its own. Prints a table; with
 * `--json FILE`, writes the rows as JSON too. With `--repeat N`, each row is run N times and the run
 * with the median overhead per call is the row (on a machine whose timings jump from run to run, one
 * run of a small project can be off by a factor of two), with the lowest and highest overhead beside it.
 *
 *   npm run bench -- [--json FILE] [--sizes 5,10,20,40] [--graphs chain,fan,diamond,mix]
 *                    [--fixed-ms 200] [--per-token-ms 0.8] [--repeat 1]
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { z } from 'zod';
import { DEFAULT_CONCURRENCY } from '../src/company/start-run.ts';
import { makeGraph, SHAPES, width } from './graphs.ts';
import type { Row, RunSpec } from './one-run.ts';

const exec = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));

const USAGE = 'usage: npm run bench -- [--json FILE] [--sizes 5,10,20,40] [--graphs chain,fan,diamond,mix] [--fixed-ms 200] [--per-token-ms 0.8] [--repeat 1]';
const FLAGS: Record<string, string> = { json: 'json', sizes: 'sizes', graphs: 'graphs', fixedMs: 'fixed-ms', perTokenMs: 'per-token-ms', repeat: 'repeat' };

const Options = z.object({
  json: z.string().min(1).optional(),
  graphs: z
    .string()
    .transform((list) => list.split(','))
    .pipe(z.array(z.enum(SHAPES)))
    .default([...SHAPES]),
  sizes: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'a comma-separated list of file counts, e.g. 5,10,20,40')
    .refine((list) => list.split(',').every((n) => Number(n) >= 3), 'a project has at least 3 files')
    .default('5,10,20,40'),
  fixedMs: z.coerce.number().min(0).default(200),
  perTokenMs: z.coerce.number().min(0).default(0.8),
  repeat: z.coerce.number().int('a whole number of runs per row, e.g. 3').min(1).default(1),
});

async function main(): Promise<void> {
  let values: Record<string, string | undefined>;
  try {
    values = readFlags();
  } catch (error) {
    console.error(`bench: ${(error as Error).message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const parsed = Options.safeParse({
    json: values.json,
    sizes: values.sizes,
    graphs: values.graphs,
    fixedMs: values['fixed-ms'],
    perTokenMs: values['per-token-ms'],
    repeat: values.repeat,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const flag = FLAGS[String(issue.path[0])] ?? String(issue.path[0]);
    console.error(`bench: --${flag}: ${issue.message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const options = parsed.data;
  const sizes = options.sizes.split(',').map(Number);
  const graphs = options.graphs;

  console.log(`sopworks benchmark — ${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`);
  console.log(`simulated model latency: ${options.fixedMs} ms + ${options.perTokenMs} ms per output token`);
  console.log(options.repeat > 1 ? `each row: the median of ${options.repeat} runs by overhead per call (range beside it)\n` : 'each row: one run\n');
  const rows: BenchRow[] = [];
  printHeader(options.repeat);
  for (const graph of graphs) {
    for (const files of sizes) {
      const w = width(makeGraph(graph, files));
      for (const concurrency of [...new Set([1, Math.max(w, DEFAULT_CONCURRENCY)])]) {
        const spec: RunSpec = { graph, files, concurrency, fixedMs: options.fixedMs, perTokenMs: options.perTokenMs };
        const runs: Row[] = [];
        for (let i = 0; i < options.repeat; i++) runs.push(await runInChild(spec));
        const row = medianRow(runs);
        rows.push(row);
        printRow(row);
      }
    }
  }
  console.log('\n' + summary(rows).join('\n'));
  if (options.json) {
    await fs.writeFile(options.json, JSON.stringify(rows, null, 2) + '\n');
    console.log(`\nrows written to ${options.json}`);
  }
}

const readFlags = (): Record<string, string | undefined> =>
  parseArgs({
    options: {
      json: { type: 'string' },
      sizes: { type: 'string' },
      graphs: { type: 'string' },
      'fixed-ms': { type: 'string' },
      'per-token-ms': { type: 'string' },
      repeat: { type: 'string' },
    },
  }).values;

/** A row made of several runs: the figures of the run with the median overhead, and the overheads' range. */
interface BenchRow extends Row {
  runs: number;
  overheadMsPerCallRange: [number, number];
}

function medianRow(runs: Row[]): BenchRow {
  const sorted = [...runs].sort((a, b) => a.overheadMsPerCall - b.overheadMsPerCall);
  // The lower median for an even count: a figure one of the runs really had.
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  return { ...median, runs: runs.length, overheadMsPerCallRange: [sorted[0]!.overheadMsPerCall, sorted.at(-1)!.overheadMsPerCall] };
}

async function runInChild(spec: RunSpec): Promise<Row> {
  const { stdout } = await exec(process.execPath, ['--import', 'tsx', path.join(HERE, 'one-run.ts'), JSON.stringify(spec)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Row;
}

const COLUMNS: [keyof BenchRow, string, number][] = [
  ['graph', 'graph', 8],
  ['files', 'files', 6],
  ['width', 'width', 6],
  ['concurrency', 'conc', 5],
  ['calls', 'calls', 6],
  ['wallMs', 'wall ms', 9],
  ['criticalPathMs', 'crit ms', 9],
  ['wallOverCritical', 'wall/crit', 10],
  ['promptTokens', 'prompt tok', 11],
  ['overheadMsPerCall', 'ovh ms/call', 12],
  ['overheadMsPerCallRange', 'ovh range', 14],
  ['peakRssMb', 'rss MB', 8],
  ['stealPct', 'steal %', 8],
];
const cell = (value: BenchRow[keyof BenchRow]): string => (Array.isArray(value) ? value.join('–') : value === null ? '–' : String(value));
// The range of a single run says nothing: shown with --repeat only.
const columns = (repeat: number) => COLUMNS.filter(([key]) => key !== 'overheadMsPerCallRange' || repeat > 1);
const printHeader = (repeat: number) =>
  console.log(
    columns(repeat)
      .map(([, title, w]) => title.padStart(w))
      .join(' '),
  );
const printRow = (row: BenchRow) =>
  console.log(
    columns(row.runs)
      .map(([key, , w]) => cell(row[key]).padStart(w))
      .join(' '),
  );

/** The issue's targets, read from this run's rows. */
function summary(rows: BenchRow[]): string[] {
  const lines: string[] = ['targets:'];
  const wide = rows.filter((r) => r.concurrency >= r.width);
  const worstRatio = Math.max(...wide.map((r) => r.wallOverCritical));
  lines.push(`  wall / critical path at concurrency >= width: worst ${worstRatio} (target <= 1.15) ${worstRatio <= 1.15 ? 'met' : 'MISSED'}`);
  for (const graph of [...new Set(rows.map((r) => r.graph))]) {
    const at = (n: number) => rows.find((r) => r.graph === graph && r.files === n && r.concurrency === 1)?.promptTokens;
    const [ten, forty] = [at(10), at(40)];
    if (ten && forty)
      lines.push(`  prompt tokens ${graph} 10 -> 40 files: x${(forty / ten).toFixed(2)} (target <= 4.5) ${forty / ten <= 4.5 ? 'met' : 'MISSED'}`);
  }
  const worstOverhead = Math.max(...rows.map((r) => r.overheadMsPerCall));
  lines.push(`  overhead per model call: worst ${worstOverhead} ms (target <= 5) ${worstOverhead <= 5 ? 'met' : 'MISSED'}`);
  const steal = rows.map((r) => r.stealPct).filter((p): p is number => p !== null);
  if (steal.length > 0) {
    lines.push(`  (CPU time taken by the hypervisor for other guests during the rows: ${Math.min(...steal)}–${Math.max(...steal)}%; overhead grows with it)`);
  }
  const rss = Math.max(...rows.filter((r) => r.files === Math.max(...rows.map((x) => x.files))).map((r) => r.peakRssMb));
  lines.push(`  peak RSS at the largest size: ${rss} MB (target <= 250) ${rss <= 250 ? 'met' : 'MISSED'}`);
  return lines;
}

main().catch((error: unknown) => {
  console.error((error as Error).stack ?? String(error));
  process.exitCode = 1;
});
