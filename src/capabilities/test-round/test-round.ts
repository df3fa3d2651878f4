/**
 * A test round: install the project's dependencies from its lockfile (when the policy allows it), run the
 * repository's own build when the design names one (build-first.ts), then the test command, in the sandbox, each with a wall-clock limit, and read the runner's output into a report — counts,
 * failing tests, a failure signature that ignores timings, and what the sandbox saw. What the run left in
 * the work tree outside the committed files (a `__pycache__/`, a cache, coverage) is removed after it.
 * Progress goes to `progress` as lines a person reads.
 */

import { stripVTControlCharacters } from 'node:util';
import { citedCriteria, type TestCase } from '../../documents/index.ts';
import type { Progress } from '../../engine/steps/index.ts';
import { looseEntries, removeNewEntries } from '../../host/git/index.ts';
import { namingTests } from '../../host/runners/index.ts';
import { type AcceptLine, runSandboxed, type SandboxOutcome, type SandboxReport, type SandboxSettings, withoutMachinePaths } from '../../host/sandbox/index.ts';
import { type BuildFacts, buildFacts, buildFailure, buildFailureLine } from './build-first.ts';
import { failureSignature, type ParsedTestOutput, parseTestOutput } from './parse-test-output.ts';
import { stoppedByLimit } from './stopped-by-limit.ts';
import { readTestCases } from './test-cases/read-test-cases.ts';

export interface TestRoundRequest {
  /** The round's number in the run (1-based). */
  round: number;
  testCommand: string[];
  /** How the sandbox runs it when that differs (`npx vitest run` from node_modules/.bin: src/host/runners/); the report keeps `testCommand`. */
  runAs?: string[];
  projectDir: string;
  timeoutMs: number;
  sandbox: SandboxSettings;
  /** Lines a person reads; the round's verdict travels as `passed`. */
  progress(event: Progress): void;
  /** Tells sopworks' own appends to the run's record from generated code's while the tests run (integrity.ts). */
  acceptRecordLine?: AcceptLine;
  /** Runs the sandboxed command with no commit landing meanwhile: the sandbox compares the repository before and after. */
  holdCommits?: <T>(work: () => Promise<T>) => Promise<T>;
  /**
   * Removes what the runner left outside the committed tree (a change run's work tree is the user's
   * branch). A new project keeps it: its build output (`tsc` → dist/) is what the smoke run starts.
   */
  removeLeftovers?: boolean;
  /** The repository's own build, run in the same sandbox before the tests (`runAs`: how, as for the tests); absent or null: none. */
  build?: { command: string[]; runAs: string[] } | null;
}

/** The round's result: the TestReport artifact's fields (src/documents/schemas.ts). */
export interface TestRound extends ParsedTestOutput {
  round: number;
  /** The command whose result this is: the test command, or the install or build that failed before it. */
  command: string[];
  /** What the round ran when it was not the tests: the build, which failed (the tests did not run). */
  kind?: 'build';
  /** The repository's build before the tests, when one ran. */
  build?: BuildFacts;
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  signature: string;
  /** The tail of the output. */
  output: string;
  sandbox: SandboxReport;
  /** The tests the output named, and those citing a criterion (read from the whole output, not its tail). */
  cases: { named: number; citing: TestCase[] };
}

/** How much of the runner's output a report keeps (its tail). */
const OUTPUT_TAIL = 8000;
/** How many tests citing a criterion a report keeps: the matrix needs them, the board need not hold a huge suite's every name. */
const MAX_CITING = 2000;

/** The tests an output names, and those that cite a criterion. */
function casesOf(output: string): TestRound['cases'] {
  const cases = readTestCases(output);
  return { named: cases.length, citing: cases.filter((c) => citedCriteria(c.name).length > 0).slice(0, MAX_CITING) };
}

/** The build (when the request names one) and then the tests, in the sandbox, with no commit landing meanwhile; what they left removed after both. */
async function buildAndTest(
  request: TestRoundRequest,
  argv: readonly string[],
  announce: () => void,
): Promise<{ built: BuildRun | null; outcome: SandboxOutcome | null }> {
  const { round, sandbox, progress } = request;
  const sandboxed = (command: readonly string[]) =>
    runSandboxed({
      argv: command,
      projectDir: request.projectDir,
      limits: { ...sandbox.limits, wallSeconds: Math.ceil(request.timeoutMs / 1000) },
      setting: sandbox.mode,
      allowUnsandboxed: sandbox.allowUnsandboxed,
      ...(request.acceptRecordLine ? { acceptRecordLine: request.acceptRecordLine } : {}),
      onNotice: (notice) => progress({ kind: 'tests-start', detail: `round ${round}: ${notice}` }),
    });
  const hold = request.holdCommits ?? (<T>(work: () => Promise<T>) => work());
  return hold(async () => {
    // What the build and the runner leave behind (`dist/`, `__pycache__/`, coverage) is no part of the project.
    const before = request.removeLeftovers ? await looseEntries(request.projectDir) : null;
    let built: BuildRun | null = null;
    if (request.build) {
      const { command, runAs } = request.build;
      const shown = runAs.join('\0') !== command.join('\0') ? ` (run as ${runAs.join(' ')})` : '';
      progress({ kind: 'tests-start', detail: `round ${round}: building first: ${command.join(' ')}${shown}` });
      const outcome = await sandboxed(runAs);
      built = { facts: buildFacts(command, outcome, request.projectDir), outcome };
      progress({ kind: 'tests-start', detail: `round ${round}: ${built.facts.passed ? 'built' : buildFailureLine(built.facts)}` });
    }
    if (built && !built.facts.passed) {
      if (before) await removeNewEntries(request.projectDir, before);
      return { built, outcome: null };
    }
    announce();
    const outcome = await sandboxed(argv);
    if (before) await removeNewEntries(request.projectDir, before);
    return { built, outcome };
  });
}

interface BuildRun {
  facts: BuildFacts;
  outcome: SandboxOutcome;
}

export async function runTestRound(request: TestRoundRequest): Promise<TestRound> {
  const { round, testCommand, progress } = request;
  // Dependencies were installed by the SOP's installDependencies step before this round, if it has one.
  const command = testCommand;
  // Run so that the output names each test (unittest, pytest and go test do only with -v): the coverage reads the names.
  const runnable = namingTests(request.runAs ?? testCommand);
  const runAs = runnable.join('\0') !== testCommand.join('\0') ? runnable : null;
  const announce = () => progress({ kind: 'tests-start', detail: `round ${round}: ${testCommand.join(' ')}${runAs ? ` (run as ${runAs.join(' ')})` : ''}` });
  const { built, outcome: tested } = await buildAndTest(request, runAs ?? testCommand, announce);
  if (!tested && built) return buildFailedRound(round, built, progress);
  let outcome = tested!;
  // What the report (and so QA's prompt) carries names no folder of this machine: `.` is the project. A
  // runner that colours its output when it likes (FORCE_COLOR in the repository's script) is read plain.
  outcome = { ...outcome, output: withoutMachinePaths(stripVTControlCharacters(outcome.output), request.projectDir) };

  const read = parseTestOutput(outcome.output);
  // A run stopped at a limit is a failure of its own: which limit, and the test that was running.
  const stopped = stoppedByLimit(outcome, read);
  // A run that ran no test proves nothing: it is "no tests ran", never a pass, whatever its exit code.
  const none = noTestsRan(read, testCommand, outcome.exitCode);
  const parsed = stopped || none ? { ...read, failures: [...read.failures, ...(stopped ? [stopped] : []), ...(none ? [none] : [])] } : read;
  const passed = command === testCommand && outcome.exitCode === 0 && !outcome.timedOut && (parsed.counts?.failed ?? 0) === 0 && !none;
  const counts = parsed.counts ? ` (${parsed.counts.passed} passed, ${parsed.counts.failed} failed)` : '';
  const verdict = passed ? 'passed' : outcome.timedOut ? 'timed out' : none ? 'NO TESTS RAN' : 'failed';
  progress({ kind: 'tests-end', detail: `round ${round}: ${verdict}${counts}`, passed });
  // What the sandbox stopped of the build is the round's too: a write to `.git` stops the run whichever command made it.
  if (built)
    outcome = {
      ...outcome,
      limitsHit: [...new Set([...built.outcome.limitsHit, ...outcome.limitsHit])],
      violations: [...built.outcome.violations, ...outcome.violations],
    };
  const seen = sandboxSeen(outcome);
  if (seen) progress({ kind: 'tests-end', detail: `round ${round}: sandbox ${outcome.mode}: ${seen}`, passed });
  return {
    ...(built ? { build: built.facts } : {}),
    round,
    command,
    passed,
    exitCode: outcome.exitCode,
    timedOut: outcome.timedOut,
    counts: parsed.counts,
    failures: parsed.failures,
    signature: passed ? 'passed' : failureSignature(parsed, outcome.exitCode, outcome.timedOut, outcome.output),
    output: outcome.output.slice(-OUTPUT_TAIL),
    cases: casesOf(outcome.output),
    sandbox: sandboxReport(outcome),
  };
}

function sandboxReport(outcome: SandboxOutcome): SandboxReport {
  return {
    mode: outcome.mode,
    limits: outcome.limits,
    limitsHit: outcome.limitsHit,
    violations: outcome.violations,
    gaps: outcome.gaps,
    ...(outcome.limitNotes ? { limitNotes: outcome.limitNotes } : {}),
    ...(outcome.environment ? { environment: outcome.environment } : {}),
  };
}

/** A round whose build failed: the build is what ran and what failed; the tests did not run. */
function buildFailedRound(round: number, built: BuildRun, progress: TestRoundRequest['progress']): TestRound {
  const { facts, outcome } = built;
  const failure = buildFailure(facts);
  progress({ kind: 'tests-end', detail: `round ${round}: BUILD FAILED`, passed: false });
  const seen = sandboxSeen(outcome);
  if (seen) progress({ kind: 'tests-end', detail: `round ${round}: sandbox ${outcome.mode}: ${seen}`, passed: false });
  return {
    round,
    kind: 'build',
    command: facts.command,
    build: facts,
    passed: false,
    exitCode: facts.exitCode,
    timedOut: facts.timedOut,
    counts: null,
    failures: [failure],
    signature: `build failed\n${failureSignature(parseTestOutput(facts.output), facts.exitCode, facts.timedOut, facts.output)}`,
    output: facts.output,
    cases: { named: 0, citing: [] },
    sandbox: sandboxReport(outcome),
  };
}

/** The name a run that ran no test is reported under (a failure of its own, and the round's first cause). */
export const NO_TESTS_RAN = 'no tests ran';

export function noTestsRan(read: ParsedTestOutput, command: readonly string[], exitCode: number | null): { name: string; message: string } | null {
  // A test file that failed to load (jest's `Test suite failed to run`) is a failure, with its own cause: not "no tests".
  if (!read.counts || read.counts.passed + read.counts.failed > 0 || read.failures.length > 0 || (read.skipped ?? 0) > 0 || read.running) return null;
  return {
    name: NO_TESTS_RAN,
    message: `\`${command.join(' ')}\` ran 0 tests (exit code ${exitCode ?? 'none'}): it found no test where it looked — a different pattern or folder than the repository's tests use`,
  };
}

/** What the sandbox stopped, or that it was a weaker one — a line of its own; null when there is nothing to say. */
function sandboxSeen(outcome: SandboxOutcome): string | null {
  const seen = [
    outcome.mode !== 'bubblewrap' ? `ran ${outcome.mode === 'unsandboxed' ? 'NOT SANDBOXED' : `under the WEAKER ${outcome.mode} sandbox`}` : null,
    outcome.limitsHit.length > 0 ? `limits hit: ${outcome.limitsHit.join(', ')}` : null,
    outcome.violations.length > 0 ? `blocked: ${outcome.violations.map((v) => `${v.kind}: ${v.detail}`).join('; ')}` : null,
  ].filter((part): part is string => part !== null);
  return seen.length > 0 ? seen.join('; ') : null;
}
