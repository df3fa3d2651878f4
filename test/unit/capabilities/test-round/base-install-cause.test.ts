/**
 * A change whose base could not be installed stops there, and its outcome names the first cause the
 * install step recognised — a peer conflict with who needs what, a refused source, a package manager
 * that cannot be had — before any line of the installer's.
 */
import assert from 'node:assert/strict';
import { runBaseTests } from '../../../../src/capabilities/test-round/base-tests.ts';
import { installFailures } from '../../../../src/host/install/index.ts';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../../src/host/sandbox/index.ts';

const ERESOLVE = [
  'npm error code ERESOLVE',
  'npm error ERESOLVE unable to resolve dependency tree',
  'npm error While resolving: root@1.0.0',
  'npm error Found: react@17.0.2',
  'npm error node_modules/react',
  'npm error   react@"^17.0.0" from the root project',
  'npm error Could not resolve dependency:',
  'npm error peer react@"^18.0.0" from react-dom@18.2.0',
  'npm error node_modules/react-dom',
  'npm error   react-dom@"^18.0.0" from the root project',
].join('\n');

const base = (failures: { name: string; message: string }[], output: string) =>
  runBaseTests({
    root: '/nonexistent',
    command: ['npm', 'test'],
    timeoutSeconds: 10,
    sandbox: DEFAULT_SANDBOX_SETTINGS,
    install: { passed: false, command: ['npm', 'install'], exitCode: 1, timedOut: false, failures, output },
    progress: () => undefined,
  });

describe("a change's base that could not be installed", () => {
  it("names the peer conflict — who needs which peer, and what the project has — not npm's first error line", async () => {
    const baseline = await base(installFailures(ERESOLVE), ERESOLVE);
    assert.equal(baseline.runner!.started, false);
    assert.equal(
      baseline.runner!.line,
      'the dependencies could not be installed (npm install): npm could not resolve a peer dependency (ERESOLVE): react-dom@18.2.0 needs react@"^18.0.0", but react@17.0.2 is what the project gets, for react@"^17.0.0" from the root project. ' +
        'Make them agree in package.json — a version of react-dom whose range takes what the project has, or react within "^18.0.0" — or, if the repository is installed with --legacy-peer-deps, say so in its .npmrc (legacy-peer-deps=true), which sopworks honours',
    );
  });

  it('names the index it could not reach before the package it therefore could not get (trial humanize2: ENOTFOUND pypi.org)', async () => {
    const output = [
      "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError'",
      'ERROR: Could not find a version that satisfies the requirement freezegun (from versions: none)',
      'ERROR: No matching distribution found for freezegun',
      'sopworks egress proxy: could not reach GET https://pypi.org/simple/freezegun/: getaddrinfo ENOTFOUND pypi.org',
    ].join('\n');
    const failures = installFailures(output);
    assert.ok(failures.length >= 2, JSON.stringify(failures));
    const baseline = await base(failures, output);
    assert.match(baseline.runner!.line!, /^the dependencies could not be installed \(npm install\): the (registry|package index) could not be reached/);
  });

  it("without a recognised cause, the installer's own line", async () => {
    const output = 'npm error code E404\nnpm error 404 Not Found - GET http://127.0.0.1:4873/nope - no such package available\n';
    const baseline = await base([{ name: 'install', message: 'the install exited with code 1' }], output);
    assert.equal(
      baseline.runner!.line,
      'the dependencies could not be installed (npm install): npm error 404 Not Found - GET http://127.0.0.1:4873/nope - no such package available',
    );
  });
});
