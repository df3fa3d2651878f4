/**
 * Whether a test command got as far as running tests, read from what it left: a shell that could not
 * find the program (exit 127: `sh: 1: mocha: not found`), a Python without the runner's module (`No
 * module named pytest`), a Node that could not load the runner or a test's import (`Cannot find
 * module`, `ERR_MODULE_NOT_FOUND`), a program that is not executable. Only when no test result was read
 * at all: a failing test that mentions a missing file is a failing test. Pure.
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
];

export function runnerStart(parsed: ParsedTestOutput, exitCode: number | null, output: string): RunnerStart {
  if (parsed.counts !== null || parsed.failures.length > 0) return { started: true, line: null };
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.find((l) => CANNOT_START.some((pattern) => pattern.test(l))) ?? null;
  if (exitCode === 127 || exitCode === 126) return { started: false, line: line ?? lines.at(-1) ?? `exit code ${exitCode}` };
  return line ? { started: false, line } : { started: true, line: null };
}
