/**
 * Whether a test command got as far as running tests, read from what it left: a shell that could not
 * find the program (exit 127: `sh: 1: mocha: not found`), a Python without the runner's module (`No
 * module named pytest`), a Node that could not load the runner or a test's import (`Cannot find
 * module`, `ERR_MODULE_NOT_FOUND`), a program that is not executable, Go outside a module or without its
 * modules, cargo without its crates — only when no test result was read
 * at all: a failing test that mentions a missing file is a failing test — or a runner that loaded no test
 * file at all (nothingLoaded). Pure.
 */
import type { ParsedTestOutput } from './parse-test-output.ts';

export interface RunnerStart {
  started: boolean;
  /** The line of the output that says why it did not start (null when it did). */
  line: string | null;
}

const CANNOT_START = [
  /\bnot found\b/i,
  /No module named/,
  /Cannot find module|ERR_MODULE_NOT_FOUND|MODULE_NOT_FOUND/,
  /command not found/i,
  /Permission denied|EACCES/,
  /is not recognized as an internal or external command/,
  /ENOENT/,
  /cannot execute/i,
  /Missing script:/,
  // Go outside a module (pkg/errors has no go.mod), or without the modules its go.mod requires; cargo
  // without its crates: nothing fetches them, and the sandbox has no network (change/map/unfetched-dependencies.ts).
  /does not contain main module|cannot find main module/,
  /missing go\.sum entry|no required module provides package|module lookup disabled by GOPROXY|dial tcp: lookup /,
  /failed to get `[^`]+` as a dependency|Could not resolve host/,
];

/** The line of a Go base outside a module (pkg/errors' shape: Go test files, no go.mod). */
export const GO_WITHOUT_MODULE = /does not contain main module|cannot find main module|go\.mod file not found/;
/** The line of a Go or Rust base without the modules or crates it depends on, which nothing here fetches. */
export const DEPENDENCIES_NOT_FETCHED =
  /missing go\.sum entry|no required module provides package|module lookup disabled by GOPROXY|proxy\.golang\.org|failed to get `[^`]+` as a dependency|index\.crates\.io/;

/** cargo's and rustc's own error line, said after its warnings of retries: the one that says why. */
const ERROR_LINE = /^error(?:\[E\d+\])?: /;

/**
 * A runner that started but could load no test — pytest's `collected 0 items / 6 errors`, unittest's
 * `_FailedTest` for each module, jest's `Test suite failed to run` with 0 tests — ran nothing the change
 * could be judged by: the line that says why is the first import error (`No module named 'humanize'`).
 */
const NOTHING_LOADED = [/collected 0 items \/ \d+ errors?/, /Interrupted: \d+ errors? during collection/, /^Tests:\s+0 total/m];
/** The lines that say why a test file could not load, the most telling first (unittest's ImportError only wraps the missing module's). */
const LOAD_ERRORS = [
  /ModuleNotFoundError: .+|No module named .+/,
  /Cannot find module '[^']+'/,
  /ERR_MODULE_NOT_FOUND.*/,
  /ImportError: .+/,
  /SyntaxError: .+/,
];

function nothingLoaded(parsed: ParsedTestOutput, output: string): string | null {
  if ((parsed.counts?.passed ?? 0) > 0) return null;
  const unittest = /unittest\.loader\._FailedTest/.test(output) && !/^FAIL: /m.test(output);
  // node --test reports a test file that could not import what it needs as one failing "test" named for the file.
  const nodeFiles =
    parsed.failures.length > 0 && parsed.failures.every((f) => /\.[cm]?[jt]sx?$/.test(f.name)) && /ERR_MODULE_NOT_FOUND|Cannot find module/.test(output);
  if (!unittest && !nodeFiles && !NOTHING_LOADED.some((pattern) => pattern.test(output))) return null;
  const lines = output.split('\n');
  const cause = LOAD_ERRORS.map((pattern) => lines.map((l) => pattern.exec(l)?.[0]).find(Boolean)).find(Boolean);
  return `no test could be loaded, so none ran${cause ? `: ${cause.trim()}` : ''}`;
}

export function runnerStart(parsed: ParsedTestOutput, exitCode: number | null, output: string): RunnerStart {
  const unloaded = exitCode !== 0 ? nothingLoaded(parsed, output) : null;
  if (unloaded) return { started: false, line: unloaded };
  if (parsed.counts !== null || parsed.failures.length > 0) return { started: true, line: null };
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const telling = lines.filter((l) => CANNOT_START.some((pattern) => pattern.test(l)));
  const line = telling.find((l) => ERROR_LINE.test(l)) ?? telling[0] ?? null;
  if (exitCode === 127 || exitCode === 126) return { started: false, line: line ?? lines.at(-1) ?? `exit code ${exitCode}` };
  return line ? { started: false, line } : { started: true, line: null };
}
