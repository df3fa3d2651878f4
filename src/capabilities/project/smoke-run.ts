/**
 * Executability, as ChatDev measures it: does the program start and finish on an input? The design's
 * smoke command (its run command with a concrete input) runs once in the sandbox, without network;
 * a crash, a time-out or a non-zero exit is a failed round, reported like a failing test. Pure parts
 * here; the step that runs it is src/capabilities/project/run-program-step.ts.
 */
import type { Design, TestReport } from '../../documents/index.ts';
import type { SandboxOutcome } from '../../host/sandbox/index.ts';

/** A word of a run command that stands for an input to fill in: FILE..., <path>, [options], $INPUT, {file}, path/to/x. */
const MARKED = /\.\.\.$|^<.*>$|^\[.*\]$|^\$\{?\w+\}?$|^\{.*\}$|^(?:\.\/)?path\/to\/|^your[_-]/i;

/** What a placeholder written as a bare capitalised word names (FILE, INPUT, TEXT, INPUT_FILE, FILE-PATH, N). */
const NOUNS = new Set(
  'FILE FILES FILENAME FILENAMES FILEPATH PATH PATHS DIR DIRECTORY FOLDER INPUT INPUTS OUTPUT TEXT STRING STR WORD WORDS NUMBER NUM N COUNT VALUE VALUES ARG ARGS ARGUMENT ARGUMENTS NAME URL QUERY PATTERN KEY ID DATA SOURCE SRC DEST DESTINATION TARGET CSV JSON'.split(
    ' ',
  ),
);

/**
 * Whether a word of a command is a placeholder rather than an input: marked as one, or a bare word in
 * capitals made of what placeholders name (`node src/cli.js FILE`, `python -m app INPUT`, `fib N`) —
 * not a capitalised value such as `C`, `GET` or `CELSIUS`.
 */
export function isPlaceholder(word: string): boolean {
  if (MARKED.test(word)) return true;
  if (!/^[A-Z][A-Z0-9]*(?:[_-][A-Z0-9]+)*$/.test(word)) return false;
  return word.split(/[_-]/).some((part) => NOUNS.has(part));
}

/**
 * The command to smoke-test the program with, or null when there is none that runs as written (a
 * library): the design's smoke command, else its run command — whichever has no placeholder.
 */
export function smokeCommandOf(design: Design): string[] | null {
  const runsAsWritten = (command: string[] | null | undefined): command is string[] =>
    Array.isArray(command) && command.length > 0 && !command.some(isPlaceholder);
  if (runsAsWritten(design.smokeCommand)) return design.smokeCommand;
  if (runsAsWritten(design.runCommand)) return design.runCommand;
  return null;
}

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
