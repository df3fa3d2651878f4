/**
 * Runs a suite: every planned run (run-plan.ts: each spec once, or repeated, with chaos and a clean run
 * to compare with) brought to an outcome with at most `concurrency` runs at once (p-queue), each measured
 * as soon as it ends, and the results written as eval.json and eval.md in the suite's output folder
 * after every run — so an interrupted suite loses nothing, and running it again resumes the runs that
 * stopped and keeps the finished ones.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import PQueue from 'p-queue';
import { describeError } from '../../ground/errors.ts';
import { SOPWORKS_VERSION } from '../../ground/version.ts';
import type { SandboxSettings } from '../../host/sandbox/index.ts';
import { aggregate } from './aggregate.ts';
import { measureRun } from './measure-run.ts';
import { robustnessTable } from './render-robustness.ts';
import { aggregateTable, renderMarkdown, specTable } from './render-table.ts';
import { type RunResult, robustness } from './robustness.ts';
import { runFacts } from './run-facts.ts';
import { isReference, type PlannedRun, planRuns, type RunsAsked } from './run-plan.ts';
import { runState, type SpecRunHooks, type SpecRunRequest } from './run-spec.ts';
import type { SpecResult, SuiteResults } from './spec-result.ts';
import type { SpecDefinition, Suite } from './suite-file.ts';

/**
 * Brings one spec's run to an outcome (in this process, or through the queue); returns an error that kept
 * it from starting. `hooks`: when a run in this process stops.
 */
export type SpecRunner = (request: SpecRunRequest, hooks: SpecRunHooks) => Promise<{ error: string | null }>;

export interface SuiteOptions {
  out: string;
  concurrency: number;
  llm?: string;
  model?: string;
  sops: string;
  roles: string;
  sandbox: SandboxSettings;
  runner: SpecRunner;
  /** `--repeat` and `--chaos`; absent: every spec once, clean. */
  asked?: RunsAsked;
  /** One line per run as it ends. */
  onProgress?: (line: string) => void;
  /** Once aborted (Ctrl-C), no further run starts; the runs under way stop after their steps in flight, resumable. */
  stop?: AbortSignal;
  /** Once aborted (a second Ctrl-C), the runs under way stop at once, resumable. */
  stopNow?: AbortSignal;
}

export const resultsFiles = (out: string) => ({ json: path.join(out, 'eval.json'), markdown: path.join(out, 'eval.md') });

interface Measured {
  run: PlannedRun;
  spec: SpecResult;
  facts: Omit<RunResult, 'sameTree'>;
}

export async function runSuite(suite: Suite, options: SuiteOptions): Promise<SuiteResults> {
  const started = Date.now();
  await fs.mkdir(options.out, { recursive: true });
  const asked = options.asked ?? { repeat: 1, chaos: null };
  const plan = planRuns(suite, asked, options.out);
  const measured = new Map<PlannedRun, Measured>();
  const queue = new PQueue({ concurrency: options.concurrency });
  let ended = 0;
  let writing = Promise.resolve();
  const save = () => {
    // Written in order, one at a time: the files always hold a whole table.
    writing = writing.then(() => writeResults(buildResults(suite, asked, plan, measured, Date.now() - started), options.out));
    return writing;
  };
  await Promise.all(
    plan.map((run) =>
      queue.add(async () => {
        if (options.stop?.aborted) return;
        const result = await bringToOutcome(run, options);
        measured.set(run, result.measured);
        ended += 1;
        options.onProgress?.(
          `[${ended}/${plan.length}] ${run.label}${run.chaos ? ` (chaos ${run.chaos.rate}, seed ${run.chaos.seed})` : ''}: ${result.measured.spec.outcome} — ${result.how}, ${(result.measured.spec.wallMs / 1000).toFixed(1)}s${result.error ? ` — ${result.error.split('\n')[0]}` : ''}`,
        );
        await save();
      }),
    ),
  );
  await save();
  return buildResults(suite, asked, plan, measured, Date.now() - started);
}

/** Starts, resumes or keeps one run, then measures it. */
async function bringToOutcome(run: PlannedRun, options: SuiteOptions): Promise<{ measured: Measured; how: string; error: string | null }> {
  const { definition } = run;
  const before = await runState(run.projectDir);
  const request: SpecRunRequest = {
    name: definition.name,
    spec: definition.spec,
    scenario: definition.scenario,
    out: run.out,
    llm: options.llm,
    model: options.model,
    sops: options.sops,
    roles: options.roles,
    allowUnsandboxed: options.sandbox.allowUnsandboxed,
    logFile: path.join(options.out, 'logs', `${definition.name}${run.repeat > 0 && run.label !== definition.name ? `.repeat-${run.repeat}` : ''}.log`),
    chaos: run.chaos,
    change: definition.change ?? null,
  };
  const { error } =
    before.kind === 'finished'
      ? { error: null }
      : await options.runner(request, { stop: { soft: options.stop, hard: options.stopNow } }).catch((e: unknown) => ({ error: describeError(e) }));
  const spec = await measure(definition, run.projectDir, options.sandbox, error);
  const facts = await runFacts(run.projectDir);
  const how = before.kind === 'finished' ? 'kept (finished earlier)' : before.kind === 'resumable' ? 'resumed' : 'run';
  return {
    how,
    error,
    measured: {
      run,
      spec,
      facts: {
        spec: definition.name,
        repeat: run.repeat,
        seed: run.chaos?.seed ?? null,
        chaos: run.chaos?.rate ?? null,
        outcome: spec.outcome === 'not-run' ? 'not-run' : (facts.outcome ?? 'none'),
        tree: facts.tree,
        checksPassed: definition.checks.length === 0 ? null : spec.checks.every((c) => c.passed),
        criteriaProven: spec.criteria && spec.criteria.total > 0 ? spec.criteria.proven / spec.criteria.total : null,
        reasks: facts.reasks,
        retries: facts.retries,
        tokens: facts.tokens,
        error,
        faults: facts.faults,
      },
    },
  };
}

async function measure(definition: SpecDefinition, projectDir: string, sandbox: SandboxSettings, error: string | null): Promise<SpecResult> {
  const state = await runState(projectDir).catch(() => ({ kind: 'absent' as const }));
  if (state.kind === 'absent' || state.kind === 'unstarted') return notRun(definition, error ?? 'the run did not start');
  return measureRun(projectDir, definition, sandbox);
}

function notRun(definition: SpecDefinition, reason: string): SpecResult {
  return {
    name: definition.name,
    spec: definition.spec,
    model: null,
    outcome: 'not-run',
    reason,
    tests: null,
    entryRuns: definition.entry === null ? null : false,
    checks: definition.checks.map((c) => ({ name: c.name, passed: false, output: 'not run' })),
    files: 0,
    lines: 0,
    complete: false,
    calls: 0,
    promptTokens: 0,
    completionTokens: 0,
    tokensPerLine: null,
    costUsd: null,
    wallMs: 0,
  };
}

/** The results so far: the reference runs in the per-spec table; with repeats, every run and the robustness rows. */
function buildResults(suite: Suite, asked: RunsAsked, plan: readonly PlannedRun[], measured: Map<PlannedRun, Measured>, wallMs: number): SuiteResults {
  const done = plan.flatMap((run) => measured.get(run) ?? []);
  const specs = done.filter((m) => isReference(m.run, plan)).map((m) => m.spec);
  const repeated = plan.length > suite.specs.length;
  const referenceTree = (name: string) => done.find((m) => m.run.definition.name === name && isReference(m.run, plan))?.facts.tree ?? null;
  const runs: RunResult[] = done.map((m) => ({
    ...m.facts,
    sameTree: isReference(m.run, plan) ? null : m.facts.tree !== null && m.facts.tree === referenceTree(m.run.definition.name),
  }));
  return {
    suite: suite.name,
    file: suite.file,
    model: specs.find((s) => s.model !== null)?.model ?? 'unknown',
    version: SOPWORKS_VERSION,
    finishedAt: new Date().toISOString(),
    specs,
    aggregates: aggregate(specs, wallMs),
    asked: { repeat: Math.max(1, asked.repeat), chaos: asked.chaos },
    runs,
    ...(repeated
      ? {
          robustness: robustness(
            runs,
            suite.specs.map((s) => s.name),
          ),
        }
      : {}),
  };
}

async function writeResults(results: SuiteResults, out: string): Promise<void> {
  const files = resultsFiles(out);
  await writeWhole(files.json, JSON.stringify(results, null, 2) + '\n');
  await writeWhole(files.markdown, markdownReport(results));
}

export function markdownReport(results: SuiteResults): string {
  const chaos = results.asked?.chaos;
  return [
    `# Evaluation: ${results.suite}`,
    '',
    `Model ${results.model} · sopworks ${results.version} · ${results.finishedAt} · ${results.specs.length} of the suite's specs measured`,
    '',
    renderMarkdown(specTable(results.specs)),
    '',
    '## Aggregates',
    '',
    renderMarkdown(aggregateTable(results.aggregates)),
    '',
    ...(results.robustness
      ? [
          `## Robustness: ${results.asked?.repeat ?? 1} run(s) of each spec${chaos ? `, chaos ${chaos.rate} from seed ${chaos.seed}, compared with a clean run` : ''}`,
          '',
          renderMarkdown(robustnessTable(results.robustness)),
          '',
        ]
      : []),
  ].join('\n');
}

/** Written to a temporary file and renamed: a crash never leaves half a table. */
async function writeWhole(file: string, text: string): Promise<void> {
  await fs.writeFile(`${file}.tmp`, text);
  await fs.rename(`${file}.tmp`, file);
}
