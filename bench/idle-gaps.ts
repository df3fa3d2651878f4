/**
 * `npm run bench:gaps -- <graph> <files> [concurrency]`: where one benchmark run spends the time when no
 * model call is out — the overhead the benchmark's `overheadMsPerCall` divides by the calls. Runs one
 * synthetic project (as `npm run bench` does, same simulated model) and prints every interval during
 * which no call was waiting on the model, longest first, with the board messages posted in it, and the
 * totals for the start (before the first call), the gaps between calls, and the end (after the last).
 * With `--warm`, the same project runs once first in the same process, as in a long-lived worker whose
 * earlier runs paid for loading and compiling; the second run is the one shown.
 */
import { z } from 'zod';
import { makeGraph, SHAPES } from './graphs.ts';
import { syntheticScenario } from './scenario.ts';
import { runSynthetic } from './synthetic-run.ts';

const Args = z.tuple([z.enum(SHAPES), z.coerce.number().int().min(3), z.coerce.number().int().min(1).default(4)]);

async function main(): Promise<void> {
  const warm = process.argv.includes('--warm');
  const args = process.argv.slice(2).filter((a) => a !== '--warm');
  const parsed = Args.safeParse([args[0], args[1], args[2] ?? undefined]);
  if (!parsed.success) {
    console.error(`usage: npm run bench:gaps -- <${SHAPES.join('|')}> <files ≥ 3> [concurrency] [--warm]`);
    process.exitCode = 2;
    return;
  }
  const [shape, files, concurrency] = parsed.data;
  const scenario = syntheticScenario(makeGraph(shape, files), shape);
  if (warm) await runSynthetic(scenario, { latency: { fixedMs: 200, perTokenMs: 0.8 }, concurrency });
  const posted: [number, string][] = [];
  const { result, provider, started, ended } = await runSynthetic(scenario, {
    latency: { fixedMs: 200, perTokenMs: 0.8 },
    concurrency,
    onEvent: (event) => {
      if (event.kind === 'message') posted.push([Date.now(), `${event.message.type} from ${event.message.from}`]);
    },
  });
  const idle = idleIntervals(provider.waits, started, ended);
  const sum = (list: typeof idle) => list.reduce((total, gap) => total + (gap.to - gap.from), 0);
  const calls = provider.waits.length;
  console.log(
    `${shape} of ${files} files at concurrency ${concurrency}${warm ? ' (a warm process)' : ''}: ${result.outcome}, ${calls} calls, ${ended - started} ms`,
  );
  console.log(`no call out: ${sum(idle)} ms (${(sum(idle) / calls).toFixed(2)} ms per call)`);
  console.log(
    `  start ${sum(idle.filter((g) => g.kind === 'start'))} ms, between calls ${sum(idle.filter((g) => g.kind === 'gap'))} ms (${idle.filter((g) => g.kind === 'gap').length}), end ${sum(idle.filter((g) => g.kind === 'end'))} ms`,
  );
  console.log('\nlongest:');
  for (const gap of [...idle].sort((a, b) => b.to - b.from - (a.to - a.from)).slice(0, 12)) {
    const during = posted.filter(([at]) => at >= gap.from && at <= gap.to).map(([, what]) => what);
    console.log(
      `  ${String(gap.to - gap.from).padStart(5)} ms  ${gap.kind.padEnd(5)} at ${String(gap.from - started).padStart(6)} ms${during.length ? `  posted: ${during.join(', ')}` : ''}`,
    );
  }
}

/** The intervals of [from, to] during which none of the waits was under way. */
function idleIntervals(waits: readonly [number, number][], from: number, to: number): { from: number; to: number; kind: 'start' | 'gap' | 'end' }[] {
  const sorted = [...waits].sort((a, b) => a[0] - b[0]);
  const idle: { from: number; to: number; kind: 'start' | 'gap' | 'end' }[] = [];
  let busyUntil = from;
  let first = true;
  for (const [start, end] of sorted) {
    if (start > busyUntil) idle.push({ from: busyUntil, to: start, kind: first ? 'start' : 'gap' });
    first = false;
    busyUntil = Math.max(busyUntil, end);
  }
  if (to > busyUntil) idle.push({ from: busyUntil, to, kind: 'end' });
  return idle;
}

main().catch((error: unknown) => {
  console.error((error as Error).stack ?? String(error));
  process.exitCode = 1;
});
