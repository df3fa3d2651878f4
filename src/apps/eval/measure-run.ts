/**
 * Measures a finished run for the evaluation table: its record (outcome, usage, wall time), the last
 * test report on its board, the code it committed (files, lines, placeholders; of a change run, what its
 * branch changed against the base), and — in the sandbox,
 * as generated code always runs — its entry point and the suite's checks.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { placeholdersIn } from '../../capabilities/project/index.ts';
import { STATE_DIR, Workspace } from '../../capabilities/repository/index.ts';
import { readRunRecord } from '../../company/index.ts';
import { runSandboxed, type SandboxSettings } from '../../host/sandbox/index.ts';
import { parseJsonLines } from '../review/index.ts';
import { changedCode } from './changed-code.ts';
import type { SpecResult } from './spec-result.ts';
import type { SpecDefinition } from './suite-file.ts';

/** How long an entry point or a check may take: they are smoke tests, not workloads. */
const COMMAND_SECONDS = 30;

/** Documentation, not code: left out of files and lines, as MetaGPT counts code lines. */
const isCode = (file: string): boolean => !file.startsWith('docs/') && !file.endsWith('.md') && file !== '.gitignore';

/** Code left unfinished, as ChatDev's completeness looks for it: the Engineer's own fast check's placeholders. */
const unfinished = (file: string, text: string): boolean => placeholdersIn(file, text).length > 0;

export async function measureRun(projectDir: string, definition: SpecDefinition, sandbox: SandboxSettings): Promise<SpecResult> {
  const stateDir = path.join(projectDir, STATE_DIR);
  const record = await readRunRecord(stateDir);
  const total = record.usage?.total ?? { calls: 0, promptTokens: 0, completionTokens: 0, costUsd: null };
  const { code, lines, complete } = (await changeMeasured(projectDir)) ?? (await projectMeasured(projectDir));
  const done = record.outcome === 'done';
  // Entry point and checks only mean something for a finished project; a failed run scores false.
  const entryRuns = definition.entry === null ? null : done ? (await runInProject(definition.entry, projectDir, sandbox)).passed : false;
  const checks = [];
  for (const check of definition.checks) {
    checks.push({
      name: check.name,
      ...(done
        ? await runInProject(check.run, projectDir, sandbox)
        : { passed: false, output: `not run: the run ended ${record.outcome ?? 'without an outcome'}` }),
    });
  }
  const tokens = total.promptTokens + total.completionTokens;
  return {
    name: definition.name,
    spec: definition.spec,
    model: record.model,
    outcome: record.outcome ?? 'interrupted',
    reason: record.reason ?? 'the run was cut off before its outcome',
    tests: await lastTestCounts(stateDir),
    criteria: criteriaOf(record.figures?.criteria),
    entryRuns,
    checks,
    files: code.length,
    lines,
    complete,
    calls: total.calls,
    promptTokens: total.promptTokens,
    completionTokens: total.completionTokens,
    tokensPerLine: lines > 0 ? Math.round((tokens / lines) * 10) / 10 : null,
    costUsd: total.costUsd ?? null,
    wallMs: record.wallMs ?? 0,
  };
}

interface CodeMeasured {
  code: string[];
  lines: number;
  complete: boolean;
}

/** A new project: every code file of its tree, and their non-blank lines. */
async function projectMeasured(projectDir: string): Promise<CodeMeasured> {
  const workspace = await Workspace.open(projectDir);
  const code = (await workspace.trackedFiles()).filter(isCode);
  let lines = 0;
  let complete = true;
  for (const file of code) {
    const text = await fs.readFile(path.join(projectDir, file), 'utf8').catch(() => '');
    lines += text.split('\n').filter((line) => line.trim() !== '').length;
    if (unfinished(file, text)) complete = false;
  }
  return { code, lines, complete };
}

/** A change run: the code files it changed or added, and the non-blank lines it added (a placeholder in them makes it incomplete). */
async function changeMeasured(projectDir: string): Promise<CodeMeasured | null> {
  const changed = await changedCode(projectDir, isCode);
  if (!changed) return null;
  const added = [...changed.added.values()].flat().filter((line) => line.trim() !== '');
  const complete = [...changed.added].every(([file, lines]) => !unfinished(file, lines.join('\n')));
  return { code: changed.files, lines: added.length, complete };
}

async function runInProject(argv: string[], projectDir: string, sandbox: SandboxSettings): Promise<{ passed: boolean; output: string }> {
  const outcome = await runSandboxed({
    argv,
    projectDir,
    limits: { ...sandbox.limits, wallSeconds: COMMAND_SECONDS },
    setting: sandbox.mode,
    allowUnsandboxed: sandbox.allowUnsandboxed,
  });
  const passed = outcome.exitCode === 0 && !outcome.timedOut;
  return {
    passed,
    output: passed ? '' : `exit ${outcome.exitCode ?? outcome.signal}${outcome.timedOut ? ' (timed out)' : ''}: ${outcome.output.trim().slice(-400)}`,
  };
}

/** The criteria tally of the run's figures (written when it stopped), without the unmet list. */
const criteriaOf = (c: { proven: number; total: number; p0Proven: number; p0Total: number } | null | undefined): SpecResult['criteria'] =>
  c ? { proven: c.proven, total: c.total, p0Proven: c.p0Proven, p0Total: c.p0Total } : null;

/** The counts of the last test report on the board. */
async function lastTestCounts(stateDir: string): Promise<SpecResult['tests']> {
  const file = path.join(stateDir, 'board.jsonl');
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const reports = parseJsonLines(text, file)
    .records.map((r) => r.value as { type?: string; payload?: { counts?: { passed: number; failed: number } | null; passed?: boolean } })
    .filter((m) => m.type === 'TestReport');
  const last = reports.at(-1)?.payload;
  if (!last) return null;
  return { allPassed: last.passed === true, counts: last.counts ?? null };
}
