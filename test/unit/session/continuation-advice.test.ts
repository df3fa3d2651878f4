/**
 * What a stopped run is told instead of "continue it with resume" — at its end and when `resume` refuses
 * it later, from the same place: a SOP that reached its bound wants a new run with a stronger model or a
 * clearer request; a change whose base's tests could not run here wants what its base report's first
 * cause names, and no model is blamed.
 */
import assert from 'node:assert/strict';
import type { BaselineTests } from '../../../src/documents/index.ts';
import type { Message } from '../../../src/engine/board/index.ts';
import { continuationAdvice } from '../../../src/session/continuation-advice.ts';

const message = (seq: number, type: string, from: string, payload: unknown): Message =>
  ({ id: `msg-${seq}`, seq, type, from, to: 'all', causedBy: [], createdAt: '', payload }) as Message;

const record = { change: { repo: '/home/dev/greetings', branch: 'sopworks/lang-option' } };

function baseThatCouldNotRun(signature: string, line: string): BaselineTests {
  return {
    round: 1,
    command: ['npm', 'test'],
    passed: false,
    exitCode: 1,
    timedOut: false,
    counts: null,
    failures: [],
    signature,
    output: line,
    sandbox: null,
    ran: true,
    runner: { started: false, line },
  };
}

const stopped = (base: BaselineTests | null) => [
  message(1, 'Requirement', 'client', { request: 'greet in French' }),
  ...(base ? [message(2, 'BaselineTests', 'qa', base)] : []),
  message(3, 'Outcome', 'qa', { outcome: 'failed', reason: "the repository's tests could not be run on the base, so no code was written" }),
];

describe('why a stopped run cannot be continued, and what helps', () => {
  it('names the environment and the package to make available when the base could not be installed', () => {
    const advice = continuationAdvice(
      stopped(baseThatCouldNotRun('install failed', 'the dependencies could not be installed (npm install): no-such-runner')),
      record,
    );
    assert.ok(advice);
    assert.equal(
      advice.why,
      "The repository's tests could not run here (the dependencies could not be installed (npm install): no-such-runner), so no code was written: the cause is this machine's environment, not the model or the SOP, and a resumed run would end the same way.",
    );
    assert.match(advice.instead, /^Make the package it could not get available to sopworks' sandbox: a registry it can reach/);
    assert.match(
      advice.instead,
      /\nThen start it again: `sopworks change \/home\/dev\/greetings "<request>"` \(a new branch; sopworks\/lang-option keeps this one/,
    );
    assert.doesNotMatch(advice.why + advice.instead, /stronger model/);
  });

  it("says to run under a newer Node.js, not to reach a registry, when the repository's package manager needs one", () => {
    const line =
      "the dependencies could not be installed (pnpm install): pnpm 11.13.1, the version the repository's packageManager names, needs Node.js 22.13 or newer, and sopworks runs on Node.js 20.20.2 here: run sopworks under Node.js 22.13 or newer, or name a pnpm version that supports Node.js 20.20.2 in package.json's packageManager";
    const advice = continuationAdvice(stopped(baseThatCouldNotRun('install failed', line)), record);
    assert.ok(advice);
    assert.match(advice.instead, /^Run sopworks under the Node\.js the line names \(its package manager will not run on this one\)/);
    assert.doesNotMatch(advice.instead, /registry/);
  });

  it('names what the tests need when the runner did not start', () => {
    const advice = continuationAdvice(stopped(baseThatCouldNotRun('runner did not start', '`npm test` did not start: sh: 1: mocha: not found')), record);
    assert.match(advice?.why ?? '', /\(`npm test` did not start: sh: 1: mocha: not found\)/);
    assert.match(advice?.instead ?? '', /^Make what the tests need available: the runner or module the line names/);
  });

  it('says to give a Go repository a go.mod, or to vendor the modules or crates nothing here fetches', () => {
    const noModule = continuationAdvice(
      stopped(baseThatCouldNotRun('x', 'pattern ./...: directory prefix . does not contain main module or its selected dependencies')),
      record,
    );
    assert.match(noModule?.instead ?? '', /^Give the repository a go\.mod \(`go mod init <the path its packages are imported by>`/);
    for (const line of [
      'a.go:3:8: github.com/google/uuid@v1.3.0: Get "https://proxy.golang.org/github.com/google/uuid/@v/v1.3.0.zip": dial tcp: lookup proxy.golang.org',
      'error: failed to get `itoa` as a dependency of package `rdep v0.1.0 (/project)`',
    ]) {
      const advice = continuationAdvice(stopped(baseThatCouldNotRun('x', line)), record);
      assert.match(advice?.instead ?? '', /^Vendor the repository's dependencies and commit them — `go mod vendor`, or `cargo vendor`/, line);
      assert.match(advice?.why ?? '', /the cause is this machine's environment/);
    }
  });

  it("says how to let the repository's own install scripts run when they stayed off, besides what the tests need", () => {
    const line =
      "`npm test` did not start: Error: Cannot find module '@changesets/git/dist/changesets-git.cjs.js' — the repository's own install scripts did not run (install scripts are off: the policy's dependencies.scripts): postinstall `preconstruct dev`";
    const advice = continuationAdvice(stopped(baseThatCouldNotRun('runner did not start', line)), record);
    const [needs, scripts, again] = advice?.instead.split('\n') ?? [];
    assert.match(needs ?? '', /^Make what the tests need available/);
    assert.match(
      scripts ?? '',
      /^If they need what the repository's own install scripts write .*`dependencies: \{ scripts: true \}` in the policy\.yaml of a copy of sops\/change, passed with --sops/,
    );
    assert.match(again ?? '', /^Then start it again: /);
    // A base that could not start for another reason is not told about scripts.
    const other = continuationAdvice(stopped(baseThatCouldNotRun('runner did not start', '`npm test` did not start: sh: 1: mocha: not found')), record);
    assert.doesNotMatch(other?.instead ?? '', /install scripts/);
  });

  it("says the SOP's bound and a stronger model for a run that failed on its own rounds, and nothing for one resume continues", () => {
    const advice = continuationAdvice(stopped(null), record);
    assert.match(advice?.why ?? '', /^The qa's SOP concluded the run failed \(.*\): its own bound was reached/);
    assert.match(advice?.instead ?? '', /with a stronger model \(--model\), a clearer request/);
    assert.equal(continuationAdvice([message(1, 'Requirement', 'client', { request: 'x' })], record), null);
  });
});
