/**
 * Runs the repository's existing tests on the base, before any code is written — after its own build
 * when the design names one (a build that fails is the base's first cause), and also when the install
 * before failed (going on only if some test passed without it) — a test round
 * (test-round.ts) in the change's work tree, which holds the base and the change's documents so far (the
 * Engineers wait for this report), with the dependencies the install step put there. What was failing
 * before the change is known — and not blamed on it — and a runner that could not start at all is said
 * with the line that explains it (runner-start.ts), so the run can stop before it writes code.
 */

import type { BaselineTests } from '../../documents/index.ts';
import type { Progress } from '../../engine/steps/index.ts';
import type { OwnScript } from '../../host/install/index.ts';
import { localCommand, NO_RUNNERS, type ProjectRunners } from '../../host/runners/index.ts';
import type { AcceptLine, SandboxSettings } from '../../host/sandbox/index.ts';
import { buildFailureLine } from './build-first.ts';
import { parseTestOutput } from './parse-test-output.ts';
import { runnerStart } from './runner-start.ts';
import { NO_TESTS_RAN, runTestRound } from './test-round.ts';

/** The install before the base tests, as the installDependencies step reported it. */
export interface InstallFacts {
  passed: boolean;
  command: string[];
  exitCode: number | null;
  timedOut: boolean;
  failures: { name: string; message: string }[];
  output: string;
}

export interface BaseTestsRequest {
  /** The change's work tree. */
  root: string;
  command: readonly string[];
  timeoutSeconds: number;
  sandbox: SandboxSettings;
  /** The dependency install that ran before (null: none ran). A failed one is why the tests cannot start. */
  install: InstallFacts | null;
  /** The repository's own install scripts the install did not run (scripts off): named when the tests could not start. */
  ownScriptsOff?: readonly OwnScript[];
  /** The repository's scripts and installed binaries, which a runner form (`npx vitest run`) runs from (src/host/runners/). */
  runners?: ProjectRunners;
  /** The repository's own build, run before the tests in the same sandbox (the design's `buildCommand`); null: none. */
  build?: readonly string[] | null;
  /** The build steps the repository declares (its map's): named when the tests could not start and no build ran. */
  declaredBuilds?: readonly { argv: readonly string[]; source: string }[];
  progress(event: Progress): void;
  acceptRecordLine?: AcceptLine;
  holdCommits?: <T>(work: () => Promise<T>) => Promise<T>;
}

export async function runBaseTests(request: BaseTestsRequest): Promise<BaselineTests> {
  if (!request.install || request.install.passed) return testBase(request);
  // What failed to install may be what the tests never needed (a requirements-dev.txt of linters and
  // packaging tools): they run without it, and the change goes on only if some of them passed.
  const failed = installFailed(request.install);
  request.progress({ kind: 'tests-start', detail: `base: ${failed.runner.line}; running the tests without them` });
  // Tests that cannot even be tried here (no such command) say no more than the install that failed first.
  const without = await testBase(request).catch(() => null);
  if (!without?.runner.started || !(without.passed || (without.counts?.passed ?? 0) > 0)) return failed;
  const counts = without.counts ? ` (${without.counts.passed} passed, ${without.counts.failed} failed)` : '';
  return { ...without, runner: { started: true, line: `${failed.runner.line}; the tests ran without them${counts}` } };
}

/** The repository's tests on the base, after its build when there is one. */
async function testBase(request: BaseTestsRequest): Promise<BaselineTests> {
  const local = localCommand(request.command, request.runners ?? NO_RUNNERS);
  if ('refused' in local) return notStarted(request.command, `the test command could not start: ${local.refused}`);
  const build = request.build ? localCommand(request.build, request.runners ?? NO_RUNNERS) : null;
  if (build && 'refused' in build) return notStarted([...request.build!], `the build command could not start: ${build.refused}`);
  const round = await runTestRound({
    build: build && request.build ? { command: [...request.build], runAs: build.argv } : null,
    round: 1,
    removeLeftovers: true,
    testCommand: [...request.command],
    runAs: local.argv,
    projectDir: request.root,
    timeoutMs: request.timeoutSeconds * 1000,
    sandbox: request.sandbox,
    progress: (event) =>
      request.progress({ ...event, detail: event.detail.replace(/^round 1: failed/, 'base: FAILED before the change').replace(/^round 1: /, 'base: ') }),
    ...(request.acceptRecordLine ? { acceptRecordLine: request.acceptRecordLine } : {}),
    ...(request.holdCommits ? { holdCommits: request.holdCommits } : {}),
  });
  // A build that failed is the first cause: the tests never ran.
  if (round.kind === 'build' && round.build) return { ...round, ran: true, runner: { started: false, line: buildFailureLine(round.build) } };
  const none = round.failures.find((f) => f.name === NO_TESTS_RAN);
  // Tests the repository has, and a command that ran none of them: the command is wrong, and nothing the change does could be judged by it.
  const runner = round.passed
    ? { started: true, line: null }
    : none
      ? { started: false, line: `no tests ran: ${none.message}` }
      : runnerStart(parseTestOutput(round.output), round.exitCode, round.output);
  // The first cause names the command, then the line that says why: `npm test` did not start: sh: 1: mocha: not found.
  if (!runner.started && runner.line && !none)
    runner.line = `\`${request.command.join(' ')}\` did not start: ${runner.line}${request.build || !COULD_NOT_LOAD.test(runner.line) ? '' : buildNotRun(request.declaredBuilds ?? [])}${ownScriptsOff(request.ownScriptsOff ?? [])}`;
  return { ...round, ran: true, runner };
}

/** Said of a base whose tests could not start with no build before them, when the repository declares one (continuation advice reads it). */
export const BUILD_NOT_RUN = 'the repository declares a build, which the design did not name, so none ran before the tests';

/** A cause that a build could answer: a test that could not load what it imports (a missing runner is not one). */
const COULD_NOT_LOAD = /Cannot find module|ERR_MODULE_NOT_FOUND|MODULE_NOT_FOUND|no test could be loaded/;

function buildNotRun(builds: readonly { argv: readonly string[]; source: string }[]): string {
  if (builds.length === 0) return '';
  return ` — ${BUILD_NOT_RUN}: ${builds.map((b) => `\`${b.argv.join(' ')}\` (${b.source})`).join('; ')}`;
}

/** Said of a base whose tests could not start while the repository's own install scripts stayed off (continuation advice reads it). */
export const OWN_SCRIPTS_OFF = "the repository's own install scripts did not run";

function ownScriptsOff(scripts: readonly OwnScript[]): string {
  if (scripts.length === 0) return '';
  const named = scripts.map((s) => `${s.name} \`${s.command}\``).join(', ');
  return ` — ${OWN_SCRIPTS_OFF} (install scripts are off: the policy's dependencies.scripts): ${named}`;
}

const INSTALLER_ERROR =
  /\b404\b|not found|no such package|No matching (version|distribution)|ERESOLVE|ETARGET|E?CONNREFUSED|ENOTFOUND|^npm (ERR!|error) |^ERROR: /i;

/** Tests that never ran, and why. */
function notStarted(command: readonly string[], line: string): BaselineTests {
  return {
    ran: true,
    round: 1,
    command: [...command],
    passed: false,
    exitCode: null,
    timedOut: false,
    counts: null,
    failures: [],
    signature: 'not started',
    output: line,
    sandbox: null,
    runner: { started: false, line },
  };
}

/** The installer as a person names it (`npm install`, `pnpm install`, `pip install`), not its whole command line. */
function installerOf(command: readonly string[]): string {
  const pip = command.indexOf('pip');
  if (pip !== -1 && command[pip + 1] === 'install') return 'pip install';
  return command.slice(0, 2).join(' ') || 'the install';
}

/** A failed install: the tests never ran, and the install's own words say why. */
function installFailed(install: InstallFacts): BaselineTests {
  // The installer's own words first (npm's `404 … no such package`, pip's `No matching distribution`); a generic exit code last.
  const lines = install.output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const own = lines.find((l) => INSTALLER_ERROR.test(l) && !/complete log of this run|^npm (ERR!|error) code /.test(l));
  // A cause the install step recognised (a peer conflict, a package the registry lacks) says more than a line of npm's.
  // A registry that could not be reached comes first: the packages it could not give follow from it.
  const unreachable = install.failures.find((f) => f.name === 'install: the registry');
  const recognised = (unreachable ?? install.failures.find((f) => f.name !== 'install'))?.message.split('\n')[0];
  const telling = recognised ?? own ?? install.failures.map((f) => f.message).find(Boolean);
  const lastLine = lines.at(-1) ?? null;
  return {
    ran: true,
    round: 1,
    command: install.command,
    passed: false,
    exitCode: install.exitCode,
    timedOut: install.timedOut,
    counts: null,
    failures: [],
    signature: 'install failed',
    output: install.output.slice(-8000),
    sandbox: null,
    runner: {
      started: false,
      line: `the dependencies could not be installed (${installerOf(install.command)}): ${telling ?? lastLine ?? `exit code ${install.exitCode}`}`,
    },
  };
}
