/**
 * Executability, as ChatDev measures it: does the program start and finish on an input? The design's
 * smoke command (its run command with a concrete input) runs once in the sandbox, without network;
 * a crash, a time-out or a non-zero exit is a failed round, reported like a failing test. Pure parts
 * here; the step that runs it is src/capabilities/project/run-program-step.ts, and which command it runs is the
 * design's (src/documents/smoke-command.ts).
 */
import type { TestReport } from '../../documents/index.ts';
import type { SandboxOutcome } from '../../host/sandbox/index.ts';

/** The last lines of the output, where a crash says what went wrong. */
const tail = (output: string, lines = 20): string => output.trimEnd().split('\n').slice(-lines).join('\n');

export function smokeReport(round: number, command: string[], outcome: SandboxOutcome): TestReport {
  const passed = outcome.exitCode === 0 && !outcome.timedOut && outcome.signal === null;
  const how = outcome.timedOut ? 'timed out' : outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
  const firstError =
    outcome.output
      .split('\n')
      .find((line) => /error|exception|traceback/i.test(line))
      ?.trim() ?? '';
  return {
    round,
    kind: 'smoke',
    command,
    passed,
    exitCode: outcome.exitCode,
    timedOut: outcome.timedOut,
    counts: null,
    failures: passed ? [] : [{ name: `the program runs: ${command.join(' ')}`, message: `it ${how} where it should succeed:\n${tail(outcome.output)}` }],
    signature: passed ? 'passed' : `smoke: ${how}: ${firstError.replace(/\d+(\.\d+)?\s*m?s\b/g, '')}`,
    output: outcome.output.slice(-8000),
    sandbox: { mode: outcome.mode, limits: outcome.limits, limitsHit: outcome.limitsHit, violations: outcome.violations, gaps: outcome.gaps },
  };
}
