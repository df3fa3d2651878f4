/**
 * The repository's own build, run before its tests in the same sandbox (no network, `.git` and the run's
 * record read-only, the same limits): what a design's `buildCommand` names — `npm run build` — so that
 * tests importing a package's `dist/` entry point find it written. The build's output and exit code go in
 * the round's report; a build that fails is the round's result, said as such (the tests did not run), and
 * what the sandbox saw of it (a write to `.git` it stopped, a limit) is the round's as much as the tests'.
 */
import { stripVTControlCharacters } from 'node:util';
import { type SandboxOutcome, withoutMachinePaths } from '../../host/sandbox/index.ts';

/** The build as a report carries it (TestReport's `build`). */
export interface BuildFacts {
  command: string[];
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  /** The tail of its output, with no path of this machine. */
  output: string;
}

/** How much of the build's output a report keeps (its tail). */
const BUILD_TAIL = 4000;

/** The name of a round's failure when the build before its tests failed. */
export const BUILD_FAILED = 'the build';

/** A build's sandboxed outcome, as the report keeps it. */
export function buildFacts(command: readonly string[], outcome: SandboxOutcome, projectDir: string): BuildFacts {
  const output = withoutMachinePaths(stripVTControlCharacters(outcome.output), projectDir);
  return {
    command: [...command],
    passed: outcome.exitCode === 0 && !outcome.timedOut,
    exitCode: outcome.exitCode,
    timedOut: outcome.timedOut,
    output: output.slice(-BUILD_TAIL),
  };
}

/** Lines of a build's output that say why it failed (a compiler's `error TS2307`, a missing module), else its last lines: three at most. */
const TELLING = /error|Cannot find|not found|No such file|ENOENT|EACCES|denied|failed|SyntaxError/i;

function telling(output: string): string[] {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const chosen = lines.filter((l) => TELLING.test(l) && !/^npm (ERR!|error) (code|path|command|workdir|A complete log|Lifecycle)/.test(l));
  return (chosen.length > 0 ? chosen.slice(0, 3) : lines.slice(-3)).map((l) => (l.length > 200 ? `${l.slice(0, 199)}…` : l));
}

/** Why a build failed, in one line a person reads first: its command, how it ended, and the line of its output that says why. */
export function buildFailureLine(build: BuildFacts): string {
  const ended = build.timedOut ? 'was stopped by the time limit' : `failed (exit code ${build.exitCode ?? 'none: killed'})`;
  const why = build.timedOut ? [] : telling(build.output);
  return `the repository's build \`${build.command.join(' ')}\` ${ended}, so the tests did not run${why.length > 0 ? `: ${why.join(' | ')}` : ''}`;
}

/** The failure a round whose build failed reports: the build, with the lines that say why. */
export function buildFailure(build: BuildFacts): { name: string; message: string } {
  return { name: BUILD_FAILED, message: buildFailureLine(build) };
}
