/**
 * `npm run bench`: synthetic projects — task graphs shaped as a chain, a wide fan, a diamond and a
 * realistic mix, of 5, 10, 20 and 40 files — through the real company, on a scripted model that sleeps
 * a simulated latency (a fixed time plus a time per output token). Each graph runs at concurrency 1 and
 * at a concurrency of at least its width, each run in a process of its own. Prints a table; with
 * `--json FILE`, writes the rows as JSON too.
 *
 *   npm run bench -- [--json FILE] [--sizes 5,10,20,40] [--graphs chain,fan,diamond,mix]
 *                    [--fixed-ms 200] [--per-token-ms 0.8]
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DEFAULT_CONCURRENCY } from '../src/company/Company.ts';
import { makeGraph, SHAPES, width } from './graphs.ts';
import type { Row, RunSpec } from './one-run.ts';

const exec = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));

const Options = z.object({
  json: z.string().min(1).optional(),
  sizes: z.string().regex(/^\d+(,\d+)*$/, 'a comma-separated list of file counts, e.g. 5,10,20,40').default('5,10,20,40'),
  graphs: z.string().default(SHAPES.join(',')),
  fixedMs: z.coerce.number().min(0).default(200),
  perTokenMs: z.coerce.number().min(0).default(0.8),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { json: { type: 'string' }, sizes: { type: 'string' }, graphs: { type: 'string' }, 'fixed-ms': { type: 'string' }, 'per-token-ms': { type: 'string' } },
  });
  const options = Options.parse({ json: values.json, sizes: values.sizes, graphs: values.graphs, fixedMs: values['fixed-ms'], perTokenMs: values['per-token-ms'] });
  const sizes = options.sizes.split(',').map(Number);
  const graphs = z.array(z.enum(SHAPES)).parse(options.graphs.split(','));

  console.log(`sopworks benchmark — ${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`);
  console.log(`simulated model latency: ${options.fixedMs} ms + ${options.perTokenMs} ms per output token\n`);
  const rows: Row[] = [];
  printHeader();
  for (const graph of graphs) {
    for (const files of sizes) {
      const w = width(makeGraph(graph, files));
      for (const concurrency of [...new Set([1, Math.max(w, DEFAULT_CONCURRENCY)])]) {
        const spec: RunSpec = { graph, files, concurrency, fixedMs: options.fixedMs, perTokenMs: options.perTokenMs };
        const row = await runInChild(spec);
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

async function runInChild(spec: RunSpec): Promise<Row> {
  const { stdout } = await exec(process.execPath, ['--import', 'tsx', path.join(HERE, 'one-run.ts'), JSON.stringify(spec)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Row;
}

const COLUMNS: [keyof Row, string, number][] = [
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
  ['peakRssMb', 'rss MB', 8],
];
const printHeader = () => console.log(COLUMNS.map(([, title, w]) => title.padStart(w)).join(' '));
const printRow = (row: Row) => console.log(COLUMNS.map(([key, , w]) => String(row[key]).padStart(w)).join(' '));

/** The targets, read from this run's rows. */
function summary(rows: Row[]): string[] {
  const lines: string[] = ['targets:'];
  const wide = rows.filter((r) => r.concurrency >= r.width);
  const worstRatio = Math.max(...wide.map((r) => r.wallOverCritical));
  lines.push(`  wall / critical path at concurrency >= width: worst ${worstRatio} (target <= 1.15) ${worstRatio <= 1.15 ? 'met' : 'MISSED'}`);
  for (const graph of [...new Set(rows.map((r) => r.graph))]) {
    const at = (n: number) => rows.find((r) => r.graph === graph && r.files === n && r.concurrency === 1)?.promptTokens;
    const [ten, forty] = [at(10), at(40)];
    if (ten && forty) lines.push(`  prompt tokens ${graph} 10 -> 40 files: x${(forty / ten).toFixed(2)} (target <= 4.5) ${forty / ten <= 4.5 ? 'met' : 'MISSED'}`);
  }
  const worstOverhead = Math.max(...rows.map((r) => r.overheadMsPerCall));
  lines.push(`  overhead per model call: worst ${worstOverhead} ms (target <= 5) ${worstOverhead <= 5 ? 'met' : 'MISSED'}`);
  const rss = Math.max(...rows.filter((r) => r.files === Math.max(...rows.map((x) => x.files))).map((r) => r.peakRssMb));
  lines.push(`  peak RSS at the largest size: ${rss} MB (target <= 250) ${rss <= 250 ? 'met' : 'MISSED'}`);
  return lines;
}

main().catch((error: unknown) => {
  console.error((error as Error).stack ?? String(error));
  process.exitCode = 1;
});
