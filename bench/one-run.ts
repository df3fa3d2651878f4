/**
 * One benchmark run, in a process of its own so its peak memory is its own: a synthetic project of
 * the given shape and size through the real company (startRun, in-process) into a temp folder.
 * Prints one JSON row on stdout.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { replyText } from '../src/capabilities/model/scenario.ts';
import { watchSteal } from './cpu-steal.ts';
import { criticalPath, makeGraph, SHAPES, width } from './graphs.ts';
import { latencyOf } from './latency-provider.ts';
import { filePath, syntheticScenario } from './scenario.ts';
import { runSynthetic } from './synthetic-run.ts';

export const RunSpec = z.object({
  graph: z.enum(SHAPES),
  files: z.number().int().min(3),
  concurrency: z.number().int().min(1),
  fixedMs: z.number().min(0),
  perTokenMs: z.number().min(0),
});
export type RunSpec = z.infer<typeof RunSpec>;

export interface Row {
  graph: string;
  files: number;
  width: number;
  concurrency: number;
  outcome: string;
  calls: number;
  wallMs: number;
  criticalPathMs: number;
  wallOverCritical: number;
  promptTokens: number;
  completionTokens: number;
  modelBusyMs: number;
  overheadMsPerCall: number;
  peakRssMb: number;
  /** The share of the machine's CPU time the hypervisor gave other guests during the run (%), null off Linux. */
  stealPct: number | null;
}

export async function runOne(spec: RunSpec): Promise<Row> {
  const graph = makeGraph(spec.graph, spec.files);
  const scenario = syntheticScenario(graph, spec.graph);
  const latency = { fixedMs: spec.fixedMs, perTokenMs: spec.perTokenMs };
  // The lower bound: every call before and after the engineering is sequential; the files follow the graph.
  // The README is one more file, written after the last stage (its task depends on it).
  const withReadme = [...graph, [graph.length - 1]];
  const perFile = withReadme.map(() => 0);
  let sequential = 0;
  for (const reply of scenario.replies) {
    const ms = latencyOf(replyText(reply), latency);
    if (reply.role === 'engineer') perFile[reply.key === 'README.md' ? graph.length : Number(/m(\d+)\.js$/.exec(reply.key!)![1])]! += ms;
    else sequential += ms;
  }
  const criticalPathMs = sequential + criticalPath(withReadme, perFile);

  const stolen = watchSteal();
  const { result, provider, started, ended } = await runSynthetic(scenario, { latency, concurrency: spec.concurrency });
  const wallMs = ended - started;
  const stealPct = stolen();
  const total = result.usage.total();
  const written = result.messages.filter((m) => m.type === 'Code').length;
  if (result.outcome !== 'done' || written !== graph.length + 1) {
    throw new Error(
      `the ${spec.graph} run of ${spec.files} files ended ${result.outcome} (${result.reason}) with ${written} files written; expected ${filePath(graph.length - 1)}, all before it and the README`,
    );
  }
  const modelBusyMs = provider.busyMs();
  return {
    graph: spec.graph,
    files: spec.files,
    width: width(graph),
    concurrency: spec.concurrency,
    outcome: result.outcome,
    calls: total.calls,
    wallMs,
    criticalPathMs: Math.round(criticalPathMs),
    wallOverCritical: round(wallMs / criticalPathMs, 3),
    promptTokens: total.promptTokens,
    completionTokens: total.completionTokens,
    modelBusyMs,
    overheadMsPerCall: round((wallMs - modelBusyMs) / total.calls, 2),
    peakRssMb: round(process.resourceUsage().maxRSS / 1024, 1),
    stealPct,
  };
}

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const spec = RunSpec.parse(JSON.parse(process.argv[2] ?? '{}'));
  runOne(spec).then(
    (row) => process.stdout.write(JSON.stringify(row) + '\n'),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
