/**
 * A test run the sandbox stopped at a limit, said as a failure the Engineer can act on: which limit,
 * its value, and — where the runner's output shows it — which test was running. Without it, a run
 * killed at the time limit reads as "failed" with no failing test, and the bug report has nothing to say.
 */

import type { LimitKind, SandboxLimits } from '../../host/sandbox/index.ts';
import type { ParsedTestOutput } from './parse-test-output.ts';

export interface StoppedRun {
  limitsHit: readonly LimitKind[];
  limits: SandboxLimits;
}

const SAID: Record<LimitKind, (limits: SandboxLimits) => string> = {
  time: (l) => `the time limit (${l.wallSeconds} s wall clock)`,
  cpu: (l) => `the CPU limit (${l.cpuSeconds} s per process)`,
  memory: (l) => `the memory limit (${l.memoryMb} MB per process)`,
  processes: (l) => `the process limit (${l.maxProcesses} processes)`,
  output: (l) => `the output limit (${l.outputKb} KB)`,
  disk: (l) =>
    `the disk limit (${[l.fileMb ? `${l.fileMb} MB per file` : null, l.diskMb ? `${l.diskMb} MB in all` : null, l.maxFiles ? `${l.maxFiles} files` : null].filter(Boolean).join(', ') || 'space or files'})`,
};

/** The failure to report for a run stopped at a limit, or null when no limit stopped it. */
export function stoppedByLimit(run: StoppedRun, parsed: ParsedTestOutput): { name: string; message: string } | null {
  // Output cut at its limit is kept (the tail): the run itself went on, and its results say how.
  const stopping = run.limitsHit.filter((kind) => kind !== 'output');
  if (stopping.length === 0) return null;
  const limits = stopping.map((kind) => SAID[kind](run.limits)).join(' and ');
  const running = parsed.running ?? null;
  return {
    name: running ?? 'the test run',
    message: running
      ? `stopped by ${limits} while this test was running — it hangs, loops, or needs more than the limit allows`
      : `stopped by ${limits}; the output does not say which test was running (a verbose runner, pytest -v or unittest -v, would)`,
  };
}
