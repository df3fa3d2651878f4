/**
 * `sopworks eval <suite.yaml>`: runs every spec of a suite (several at once), measures what each run
 * made, prints the table and writes it as eval.json and eval.md; run again, it resumes what stopped and
 * keeps what finished. `eval --compare a.json b.json` puts two suites' results side by side.
 * `--queue` hands the runs to the workers of the job queue instead of running them here (docs/scaling.md).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readSettings } from '../../capabilities/model/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { sandboxSettings } from '../../host/sandbox/index.ts';
import { chaosOf, chaosRate, chaosSeed, parseRequest, wholeNumberIn } from '../../session/index.ts';
import {
  aggregateTable,
  compareTables,
  loadSuite,
  planRuns,
  renderText,
  resultsFiles,
  robustnessTable,
  runSpec,
  runSuite,
  type SpecRunner,
  SuiteResults,
  specTable,
} from '../eval/index.ts';
import { EXIT, type Output } from './output.ts';

const EvalOptions = z.object({
  out: z.string().min(1).optional(),
  concurrency: wholeNumberIn(1, 64),
  llm: z.string().optional(),
  model: z.string().min(1).optional(),
  compare: z.array(z.string()).length(2, 'give two results files: --compare a.json b.json').optional(),
  queue: z.boolean().default(false),
  allowUnsandboxed: z.boolean().default(false),
  sops: z.string().min(1),
  roles: z.string().min(1),
  repeat: wholeNumberIn(1, 100),
  chaos: chaosRate(),
  seed: chaosSeed(),
});

export async function evalCommand(suiteFile: string | undefined, rawOptions: unknown, io: Output): Promise<number> {
  const options = parseRequest(EvalOptions, rawOptions, 'eval');
  if (options.compare) return compare(options.compare[0]!, options.compare[1]!, io);
  if (!suiteFile)
    throw new SopworksError('USAGE', 'Name a suite file, or two results files with --compare.', { hint: 'sopworks eval examples/eval/suite.yaml' });
  const suite = await loadSuite(suiteFile);
  if (options.queue && suite.specs.some((s) => s.change)) {
    throw new SopworksError('USAGE', `${suiteFile} has change tasks, and the queue's workers start new projects only.`, {
      hint: 'Run this suite without --queue (--concurrency sets how many at once).',
    });
  }
  const asked = { repeat: options.repeat ?? 1, chaos: await chaosOf(options) };
  if (asked.chaos && suite.specs.every((s) => s.scenario === null)) {
    throw new SopworksError('USAGE', `--chaos spoils scripted scenarios' replies, and no spec of ${suiteFile} has a scenario.`, {
      hint: 'Give the specs a `scenario:` (docs/eval.md), or drop --chaos and use --repeat alone.',
    });
  }
  const settings = readSettings();
  const out = path.resolve(options.out ?? path.join('output', `eval-${suite.name}`));
  // Through the queue, every spec is queued at once: the workers' concurrency is the limit.
  const planned = planRuns(suite, asked, out).length;
  const concurrency = options.queue ? planned : (options.concurrency ?? suite.concurrency);
  const stop = new AbortController();
  const stopNow = new AbortController();
  let runner: SpecRunner = runSpec;
  let close = async () => {};
  if (options.queue) {
    const { queueRunner } = await import('../queue/index.ts');
    ({ runner, close } = await queueRunner(io, stop.signal));
  }
  // The first signal: no further spec starts and the runs under way stop after their steps in flight; the second stops them at once.
  const onSigint = () => {
    if (stop.signal.aborted) return stopNow.abort();
    io.err('notice: stopping: no further spec starts; the runs under way stop after their steps in flight. Run the same eval again to resume.');
    stop.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const runsOf =
    asked.repeat > 1 || asked.chaos
      ? `, ${asked.repeat} run(s) each${asked.chaos ? ` with chaos ${asked.chaos.rate} (seeds from ${asked.chaos.seed}) and one clean` : ''}`
      : '';
  io.out(`Suite ${suite.name}: ${suite.specs.length} specs${runsOf}, ${options.queue ? 'through the queue' : `${concurrency} at once`} → ${out}`);
  try {
    const results = await runSuite(suite, {
      out,
      concurrency,
      llm: options.llm,
      model: options.model,
      sops: options.sops,
      roles: options.roles,
      sandbox: sandboxSettings(settings.sandbox, options.allowUnsandboxed),
      runner,
      asked,
      onProgress: (line) => io.out(line),
      stop: stop.signal,
      stopNow: stopNow.signal,
    });
    io.out('');
    io.out(renderText(specTable(results.specs)));
    io.out('');
    io.out(renderText(aggregateTable(results.aggregates)));
    if (results.robustness) {
      io.out('');
      io.out(renderText(robustnessTable(results.robustness)));
    }
    const files = resultsFiles(out);
    io.out(
      `\nWritten ${path.relative(process.cwd(), files.json) || files.json} and ${path.relative(process.cwd(), files.markdown) || files.markdown}; run logs in ${path.relative(process.cwd(), path.join(out, 'logs')) || 'logs'}/`,
    );
    if (stop.signal.aborted || (results.runs ?? []).length < planned) {
      io.out('The suite was stopped: run the same command again to resume it.');
      return EXIT.interrupted;
    }
    return (results.runs ?? []).every((r) => r.outcome === 'done') ? EXIT.done : EXIT.failed;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await close();
  }
}

async function readResults(file: string): Promise<SuiteResults> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new SopworksError('USAGE', `Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`, {
      hint: 'Give the eval.json an eval wrote, e.g. output/eval-<suite>/eval.json.',
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new SopworksError('USAGE', `${file} is not JSON.`, { hint: 'Give the eval.json an eval wrote.' });
  }
  const parsed = SuiteResults.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SopworksError('USAGE', `${file} is not an eval's results: ${issue.path.join('.') || '(top level)'}: ${issue.message}.`, {
      hint: 'Give the eval.json an eval wrote.',
    });
  }
  return parsed.data;
}

async function compare(fileA: string, fileB: string, io: Output): Promise<number> {
  const [a, b] = await Promise.all([readResults(fileA), readResults(fileB)]);
  const tables = compareTables(a, b);
  io.out(`A: ${fileA}\nB: ${fileB}\n`);
  io.out(renderText(tables.specs));
  io.out('');
  io.out(renderText(tables.aggregates));
  return EXIT.done;
}
