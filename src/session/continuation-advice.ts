/**
 * Why a stopped run cannot be continued, and what helps instead — the one place that chooses it, for the
 * run's own end (session-result.ts) and for a `resume` refused later (prepare-resume.ts) alike: a run whose
 * SOP's bound was reached wants a new run with what made it give up changed (src/engine/run/run-continuation.ts),
 * but a change whose base's tests could not run here failed on this machine's environment, and what helps
 * is what its base report's first cause names.
 */
import { BUILD_NOT_RUN, DEPENDENCIES_NOT_FETCHED, GO_WITHOUT_MODULE, OWN_SCRIPTS_OFF } from '../capabilities/test-round/index.ts';
import { BaselineTests } from '../documents/index.ts';
import type { Message } from '../engine/board/index.ts';
import { adviceOfBound, type ContinuationAdvice, type NotContinuable, startAfresh } from '../engine/run/index.ts';
import { cleanLine } from '../ground/terminal-text.ts';

export const continuationAdvice: ContinuationAdvice = (messages, record) => {
  const bound = adviceOfBound(messages, record);
  const base = bound ? baseThatCouldNotRun(messages) : null;
  return base ? environmentAdvice(base, record) : bound;
};

/** The base's tests as they could not run (a change stopped before any code), or null. */
function baseThatCouldNotRun(messages: readonly Message[]): BaselineTests | null {
  const posted = [...messages].reverse().find((m) => m.type === 'BaselineTests');
  const base = BaselineTests.safeParse(posted?.payload);
  return base.success && !base.data.runner.started ? base.data : null;
}

/** The install's cause when the repository's package manager is newer than this Node.js (host/install, install-failures.ts). */
const NODE_TOO_OLD = /packageManager names, needs Node\.js \S+ or newer/;

/**
 * A change whose base's tests could not run here failed on this machine's environment, not on a model's
 * reply or the SOP's bound: what helps is making what they need available, then starting it again.
 */
function environmentAdvice(base: BaselineTests, record: object | null): NotContinuable {
  const line = base.runner.line ?? 'no cause was read';
  return {
    why: `The repository's tests could not run here (${cleanLine(line)}), so no code was written: the cause is this machine's environment, not the model or the SOP, and a resumed run would end the same way.`,
    instead: [
      base.kind === 'build'
        ? "Make what the repository's build needs available (the tool or module its output names, declared in the repository so that the install brings it): the build runs in the tests' sandbox, without network, before the tests; its output is in the base's report."
        : base.signature === 'install failed' && NODE_TOO_OLD.test(line)
          ? "Run sopworks under the Node.js the line names (its package manager will not run on this one), or name in the repository's package.json `packageManager` a version that supports this Node.js."
          : base.signature === 'install failed'
            ? "Make the package it could not get available to sopworks' sandbox: a registry it can reach (SOPWORKS_PIP_INDEX_URL or SOPWORKS_PIP_FIND_LINKS for pip, SOPWORKS_NPM_REGISTRY for npm, or the policy's dependencies.registries; docs/sandbox.md), or a version the registry has declared in the repository."
            : GO_WITHOUT_MODULE.test(line)
              ? 'Give the repository a go.mod (`go mod init <the path its packages are imported by>`; Go 1.16 and later build only in a module) and commit it: sopworks runs the tests from the top of the repository.'
              : DEPENDENCIES_NOT_FETCHED.test(line)
                ? "Vendor the repository's dependencies and commit them — `go mod vendor`, or `cargo vendor` with the `[source]` lines it prints in .cargo/config.toml: sopworks installs npm and pip dependencies, not Go modules or Rust crates, and the tests' sandbox has no network."
                : 'Make what the tests need available: the runner or module the line names, declared in the repository (its manifest, its test extras) so that the install brings it, or a test command that runs here.',
      ...(line.includes(BUILD_NOT_RUN)
        ? [
            "If the tests import what that build writes (a package's `dist/` entry point), say so in the request — the design's `buildCommand` names the build, and QA runs it in the tests' sandbox before the tests (docs/sandbox.md).",
          ]
        : []),
      ...(line.includes(OWN_SCRIPTS_OFF)
        ? [
            "If they need what the repository's own install scripts write (a build, the `dist/` its packages import), let install scripts run: `dependencies: { scripts: true }` in the policy.yaml of a copy of sops/change, passed with --sops — they then run in the install's sandbox, behind its egress proxy, and its dependencies' scripts with them (docs/sandbox.md).",
          ]
        : []),
      `Then start it again: ${startAfresh(record)}.`,
    ].join('\n'),
  };
}
