/**
 * Runs a suite: every spec brought to an outcome with at most `concurrency` runs at once (p-queue),
 * each measured as soon as it ends, and the results written as eval.json and eval.md in the suite's
 * output folder after every run — so an interrupted suite loses nothing, and running it again resumes
 * the runs that stopped and keeps the finished ones.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import PQueue from 'p-queue';
import { describeError } from '../../ground/errors.ts';
import type { SandboxSettings } from '../../host/sandbox/sandbox-settings.ts';
import { SOPWORKS_VERSION } from '../../ground/version.ts';
import { aggregate } from './aggregate.ts';
import { measureRun } from './measure-run.ts';
import { aggregateTable, renderMarkdown, specTable } from './render-table.ts';
import { runState, type SpecRunRequest } from './run-spec.ts';
import type { SpecResult, SuiteResults } from './spec-result.ts';
import type { SpecDefinition, Suite } from './suite-file.ts';

/** Brings one spec's run to an outcome (in this process, or through the queue); returns an error that kept it from starting. */
export type SpecRunner = (request: SpecRunRequest) => Promise<{ error: string | null }>;

export interface SuiteOptions {
  out: string;
  concurrency: number;
  llm?: string;
  model?: string;
  sops: string;
  roles: string;
  sandbox: SandboxSettings;
  runner: SpecRunner;
  /** One line per spec as it ends. */
  onProgress?: (line: string) => void;
  /** Once aborted (Ctrl-C), no further spec starts; the runs under way stop as `run` does, resumable. */
  stop?: AbortSignal;
}

export const resultsFiles = (out: string) => ({ json: path.join(out, 'eval.json'), markdown: path.join(out, 'eval.md') });

export async function runSuite(suite: Suite, options: SuiteOptions): Promise<SuiteResults> {
  const started = Date.now();
  await fs.mkdir(options.out, { recursive: true });
  const results = new Map<string, SpecResult>();
  const queue = new PQueue({ concurrency: options.concurrency });
  let ended = 0;
  let writing = Promise.resolve();
  const save = () => {
    // Written in order, one at a time: the files always hold a whole table.
    writing = writing.then(() => writeResults(suite, options.out, ordered(suite, results), Date.now() - started));
    return writing;
  };
  await Promise.all(
    suite.specs.map((definition) =>
      queue.add(async () => {
        if (options.stop?.aborted) return;
        const before = await runState(path.join(options.out, definition.name));
        const request: SpecRunRequest = {
          name: definition.name,
          spec: definition.spec,
          scenario: definition.scenario,
          out: options.out,
          llm: options.llm,
          model: options.model,
          sops: options.sops,
          roles: options.roles,
          allowUnsandboxed: options.sandbox.allowUnsandboxed,
          logFile: path.join(options.out, 'logs', `${definition.name}.log`),
          change: definition.change ?? null,
        };
        const { error } = before.kind === 'finished' ? { error: null } : await options.runner(request).catch((e: unknown) => ({ error: describeError(e) }));
        const result = await measure(definition, path.join(options.out, definition.name), options.sandbox, error);
        results.set(definition.name, result);
        ended += 1;
        const how = before.kind === 'finished' ? 'kept (finished earlier)' : before.kind === 'resumable' ? 'resumed' : 'run';
        options.onProgress?.(
          `[${ended}/${suite.specs.length}] ${definition.name}: ${result.outcome} — ${how}, ${(result.wallMs / 1000).toFixed(1)}s${error ? ` — ${error.split('\n')[0]}` : ''}`,
        );
        await save();
      }),
    ),
  );
  await save();
  return buildResults(suite, ordered(suite, results), Date.now() - started);
}

const ordered = (suite: Suite, results: Map<string, SpecResult>): SpecResult[] => suite.specs.flatMap((s) => results.get(s.name) ?? []);

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

function buildResults(suite: Suite, specs: SpecResult[], wallMs: number): SuiteResults {
  return {
    suite: suite.name,
    file: suite.file,
    model: specs.find((s) => s.model !== null)?.model ?? 'unknown',
    version: SOPWORKS_VERSION,
    finishedAt: new Date().toISOString(),
    specs,
    aggregates: aggregate(specs, wallMs),
  };
}

async function writeResults(suite: Suite, out: string, specs: SpecResult[], wallMs: number): Promise<void> {
  const results = buildResults(suite, specs, wallMs);
  const files = resultsFiles(out);
  await writeWhole(files.json, JSON.stringify(results, null, 2) + '\n');
  await writeWhole(files.markdown, markdownReport(results));
}

export function markdownReport(results: SuiteResults): string {
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
  ].join('\n');
}

/** Written to a temporary file and renamed: a crash never leaves half a table. */
async function writeWhole(file: string, text: string): Promise<void> {
  await fs.writeFile(`${file}.tmp`, text);
  await fs.rename(`${file}.tmp`, file);
}
