/**
 * `npm run bench:chaos`: the robustness figure (docs/eval.md, Chaos). Two parts, through the real CLI:
 *
 * 1. the shipped suite under `sopworks eval … --chaos 0.3 --repeat 3` (a clean run of each spec to
 *    compare with): how many runs end `done`, how many of those with exactly the clean run's tree, how
 *    many crash or end without an outcome, how many injected faults the gateway mishandled;
 * 2. kills: chaos runs of the suite's scenarios SIGKILLed after a random number of progress lines (drawn
 *    from --kill-seed), then `sopworks resume`d — each must end `done` with the clean run's tree.
 *
 * It exits 1 when the figure misses what the project holds: at least 95% of runs done, every done run
 * with the clean tree, no crash, no resumed kill with another tree.
 *
 *   npm run bench:chaos -- [--rate 0.3] [--repeat 3] [--seed 1] [--kills 10] [--kill-seed 1] [--concurrency 3] [--json FILE]
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { SuiteResults } from '../src/apps/eval/spec-result.ts';
import { loadSuite } from '../src/apps/eval/suite-file.ts';
import { drawsFor } from '../src/capabilities/model/chaos/draws.ts';

const exec = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'sopworks.js');
const SUITE = path.join(ROOT, 'examples', 'eval', 'suite.yaml');

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '0.3' },
    repeat: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    kills: { type: 'string', default: '10' },
    'kill-seed': { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '3' },
    json: { type: 'string' },
  },
});
const [rate, repeat, seed, kills, killSeed, concurrency] = [values.rate, values.repeat, values.seed, values.kills, values['kill-seed'], values.concurrency].map(
  Number,
) as [number, number, number, number, number, number];
if (!(rate > 0 && rate <= 1) || [repeat, seed, kills, killSeed, concurrency].some((n) => !Number.isInteger(n) || n < 0) || repeat < 1) {
  console.error('usage: npm run bench:chaos -- [--rate 0.3] [--repeat 3] [--seed 1] [--kills 10] [--kill-seed 1] [--concurrency 3] [--json FILE]');
  process.exit(2);
}

const cli = (args: string[], cwd: string) => exec(process.execPath, [BIN, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 }).catch((e) => e);
const treeOf = async (dir: string) => (await exec('git', ['rev-parse', 'HEAD^{tree}'], { cwd: dir })).stdout.trim();

/** Part 1: the suite under chaos. */
async function suiteFigure(work: string) {
  const out = path.join(work, 'eval');
  const started = Date.now();
  await cli(
    ['eval', SUITE, '--out', out, '--chaos', String(rate), '--seed', String(seed), '--repeat', String(repeat), '--concurrency', String(concurrency)],
    work,
  );
  const results = SuiteResults.parse(JSON.parse(await fs.readFile(path.join(out, 'eval.json'), 'utf8')));
  const all = results.robustness!.at(-1)!;
  const byClass = new Map<string, { injected: number; mishandled: number }>();
  for (const fault of results.runs!.flatMap((r) => r.faults)) {
    const entry = byClass.get(fault.fault) ?? { injected: 0, mishandled: 0 };
    entry.injected++;
    if (!fault.handled) entry.mishandled++;
    byClass.set(fault.fault, entry);
  }
  const cleanTrees = new Map(results.runs!.filter((r) => r.repeat === 0).map((r) => [r.spec, r.tree]));
  return { out, all, byClass: Object.fromEntries([...byClass].sort()), cleanTrees, wallS: Math.round((Date.now() - started) / 1000) };
}

/** Starts a chaos run and SIGKILLs it after `lines` progress lines; the signal it ended with. */
function killedAfter(scenario: string, out: string, lines: number, chaosSeed: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const args = [BIN, 'run', '--llm', `scripted:${scenario}`, '--out', out, '--chaos', String(rate), '--seed', String(chaosSeed)];
    const child = spawn(process.execPath, args, { cwd: out, stdio: ['ignore', 'pipe', 'ignore'] });
    let seen = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString().split('\n').length - 1;
      if (seen >= lines) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve(signal));
  });
}

/** Part 2: kills at random moments, each resumed and compared with the clean tree. */
async function killFigure(work: string, cleanTrees: Map<string, string | null>) {
  const suite = await loadSuite(SUITE);
  const draws = drawsFor(killSeed, 'chaos kills');
  const rows: { spec: string; seed: number; killedAfter: number; killed: boolean; outcome: number; sameTree: boolean }[] = [];
  for (let i = 0; i < kills; i++) {
    const spec = draws.pick(suite.specs);
    const lines = draws.int(2, spec.name === 'wordfreq' ? 80 : 36);
    const chaosSeed = draws.int(1, 1000);
    const out = await fs.mkdtemp(path.join(work, 'kill-'));
    const signal = await killedAfter(spec.scenario!, out, lines, chaosSeed);
    const project = (await fs.readdir(out))[0];
    const resumed = project ? await cli(['resume', path.join(out, project)], out) : { code: 1 };
    const tree = project ? await treeOf(path.join(out, project)).catch(() => null) : null;
    rows.push({
      spec: spec.name,
      seed: chaosSeed,
      killedAfter: lines,
      killed: signal === 'SIGKILL',
      outcome: (resumed as { code?: number }).code ?? 0,
      sameTree: tree !== null && tree === cleanTrees.get(spec.name),
    });
  }
  return rows;
}

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-chaos-bench-'));
const figure = await suiteFigure(work);
const killRows = await killFigure(work, figure.cleanTrees);
const { all } = figure;
const killed = killRows.filter((r) => r.killed);
const summary = {
  command: `sopworks eval examples/eval/suite.yaml --chaos ${rate} --seed ${seed} --repeat ${repeat}`,
  runs: all.runs,
  done: all.done,
  doneShare: all.runs === 0 ? 0 : all.done / all.runs,
  sameTree: all.sameTree,
  wrongTrees: all.done - all.sameTree,
  crashed: all.crashed,
  faults: all.faults,
  faultsMishandled: all.faultsMishandled,
  reasksPerRun: all.reasksPerRun,
  retriesPerRun: all.retriesPerRun,
  byClass: figure.byClass,
  suiteWallS: figure.wallS,
  kills: {
    seed: killSeed,
    made: killed.length,
    resumedDone: killed.filter((r) => r.outcome === 0).length,
    sameTree: killed.filter((r) => r.sameTree).length,
    rows: killRows,
  },
};
console.log(`${summary.command}  (${figure.wallS} s; projects in ${figure.out})`);
console.log(
  `  runs ${all.runs}: done ${all.done} (${(summary.doneShare * 100).toFixed(1)}%), with the clean run's tree ${all.sameTree}, crashed or without an outcome ${all.crashed}`,
);
console.log(`  faults injected ${all.faults}, mishandled ${all.faultsMishandled}; re-asks/run ${all.reasksPerRun}, retries/run ${all.retriesPerRun}`);
for (const [name, c] of Object.entries(figure.byClass))
  console.log(`    ${name.padEnd(30)} ${String(c.injected).padStart(4)}${c.mishandled > 0 ? `  (${c.mishandled} mishandled)` : ''}`);
console.log(
  `kills (-9 at random progress lines, seed ${killSeed}): ${killed.length} made, ${summary.kills.resumedDone} resumed to done, ${summary.kills.sameTree} with the clean tree`,
);
for (const r of killRows)
  console.log(
    `    ${r.spec.padEnd(12)} chaos seed ${String(r.seed).padStart(4)}, killed after ${String(r.killedAfter).padStart(2)} lines: ${r.outcome === 0 ? 'done' : `exit ${r.outcome}`}${r.sameTree ? ', same tree' : ', ANOTHER TREE'}`,
  );
if (values.json) await fs.writeFile(values.json, `${JSON.stringify(summary, null, 2)}\n`);
const held =
  summary.doneShare >= 0.95 &&
  summary.wrongTrees === 0 &&
  all.crashed === 0 &&
  summary.kills.sameTree === killed.length &&
  summary.kills.resumedDone === killed.length;
console.log(held ? 'The figure holds.' : 'The figure does NOT hold (at least 95% done, 0 other trees, 0 crashes, every kill resumed to the clean tree).');
process.exit(held ? 0 : 1);
