/**
 * The repository's own test runner runs: a JavaScript repository whose runner is a devDependency and
 * which commits no lockfile gets it installed (from a real local registry, scripts off) before the tests
 * on the base, and the lockfile the install wrote stays out of the branch and the work tree. A runner that
 * cannot start — not installable, or not there at all — stops the run before any code is written, the
 * base report quoting the line that says why.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { GREETINGS_BRANCH as BRANCH, changeSetUp, GREETINGS_SCENARIO, git, type Reply } from '../helpers/change-repo.ts';
import { sopworks } from '../helpers/in-process.ts';
import { type NpmRegistry, startNpmRegistry } from '../helpers/npm-registry.ts';
import { ROOT } from '../helpers/paths.ts';
import { BUBBLEWRAP, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

/** A test runner as a package: its bin runs node's own runner on test/. */
const RUNNER_BIN =
  "#!/usr/bin/env node\nconst { spawnSync } = require('node:child_process');\nprocess.exit(spawnSync(process.execPath, ['--test'], { stdio: 'inherit' }).status ?? 1);\n";

const withTestCommand =
  (testCommand: string[]) =>
  (replies: Reply[]): Reply[] =>
    replies.map((r) => (r.role === 'architect' && r.action === 'write_design_delta' ? { ...r, json: { ...(r.json as object), testCommand } } : r));
const withNpmTest = withTestCommand(['npm', 'test']);

/** The greetings scenario's design delta, which a correction repeats with another test command. */
let GREETINGS_DESIGN: Reply;
const designOf = (reply: Reply) => reply.json as Record<string, unknown>;

const manifest = (devDependencies: Record<string, string>, test: string, scripts: Record<string, string> = {}) =>
  `${JSON.stringify({ name: 'greetings', version: '0.3.0', type: 'module', scripts: { ...scripts, test }, devDependencies }, null, 2)}\n`;

describe("sopworks change: the repository's own test runner", function () {
  this.timeout(300_000);
  let npm: NpmRegistry;
  before(async () => {
    const scenario = parse(await fs.readFile(GREETINGS_SCENARIO, 'utf8')) as { replies: Reply[] };
    GREETINGS_DESIGN = scenario.replies.find((r) => r.action === 'write_design_delta')!;
    npm = await startNpmRegistry();
    await npm.publishFiles({
      'package.json': JSON.stringify({ name: 'tiny-runner', version: '1.0.0', bin: { 'tiny-runner': 'bin.js' } }),
      'bin.js': RUNNER_BIN,
    });
  });
  after(async () => {
    await npm?.stop();
    await removeTempDirs();
  });

  it('installs a devDependency runner when no lockfile is committed, runs the base with it, and keeps the generated lockfile out', async function () {
    // npm links the runner's command into node_modules/.bin, which Node's permission model (the weaker
    // sandbox) forbids: without bubblewrap the install fails, saying so (test/unit/capabilities/project/project-checks.test.ts).
    requireSystem(this, BUBBLEWRAP);
    const run = await changeSetUp(withNpmTest, {
      extra: { 'package.json': manifest({ 'tiny-runner': '^1.0.0' }, 'tiny-runner'), '.gitignore': 'node_modules/\n' },
    });
    const result = await run.change([], { SOPWORKS_NPM_REGISTRY: npm.url });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    // The install the base's tests run on is the base's, not a round of the change's tests.
    assert.match(result.stdout, /tests base: installing dependencies: npm install --ignore-scripts/);
    assert.doesNotMatch(result.stdout, /tests round \d+: installing dependencies/);
    assert.match(result.stdout, /tests base: passed \(4 passed, 0 failed\)/);
    assert.ok(!git(run.repo, 'ls-tree', '-r', '--name-only', BRANCH).split('\n').includes('package-lock.json'), 'no lockfile on the branch');
    await assert.rejects(fs.stat(path.join(run.worktree, 'package-lock.json')), 'nor in the work tree');
    assert.equal(git(run.worktree, 'status', '--porcelain'), '', 'the work tree is clean');
    run.untouched();
  });

  it('runs a devDependency runner behind npx from node_modules/.bin, fetching nothing at test time', async function () {
    requireSystem(this, BUBBLEWRAP);
    const run = await changeSetUp(withTestCommand(['npx', 'tiny-runner']), {
      extra: { 'package.json': manifest({ 'tiny-runner': '^1.0.0' }, 'node --test'), '.gitignore': 'node_modules/\n' },
    });
    const result = await run.change([], { SOPWORKS_NPM_REGISTRY: npm.url });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /tests base: npx tiny-runner \(run as node_modules\/\.bin\/tiny-runner\)/);
    assert.match(result.stdout, /tests base: passed \(4 passed, 0 failed\)/);
    assert.match(result.stdout, /tests round 1: passed/);
    run.untouched();
  });

  it('sends a refused test command back to the design step, each correction shown every refusal of the loop', async function () {
    requireSystem(this, BUBBLEWRAP);
    const fix = (testCommand: string[]): Reply => ({ role: 'architect', action: 'fix_design_delta', json: { ...designOf(GREETINGS_DESIGN), testCommand } });
    const loop = (replies: Reply[]) =>
      withTestCommand(['tox'])(replies).flatMap((r) => (r.action === 'write_design_delta' ? [r, fix(['npx', 'jest']), fix(['npx', 'tiny-runner'])] : [r]));
    const run = await changeSetUp(loop, { extra: { 'package.json': manifest({ 'tiny-runner': '^1.0.0' }, 'node --test'), '.gitignore': 'node_modules/\n' } });
    const result = await run.change([], { SOPWORKS_NPM_REGISTRY: npm.url });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const exchanges = (await fs.readFile(path.join(run.worktree, '.sopworks', 'exchanges.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; messages: { content: string }[] });
    const fixes = exchanges.filter((e) => e.action === 'fix_design_delta').map((e) => e.messages.at(-1)!.content);
    assert.equal(fixes.length, 2);
    assert.match(fixes[0]!, /`tox` is refused: qa may not run "tox": tox makes its own environments/);
    assert.match(fixes[0]!, /Allowed by the policy: .*its tools, nothing fetched: npx <bin> for a binary of its dependencies \(tiny-runner\)/);
    // The second correction sees both refusals: tox's, and then jest's.
    assert.match(
      fixes[1]!,
      /Refused first[^\n]*\n[^\n]*`tox` is refused[\s\S]*And now, after your last correction:\n[^\n]*`npx jest` is refused: "npx jest" runs "jest", which no dependency the repository declares provides/,
    );
    assert.ok(!exchanges.some((e) => e.action === 'fix_change_tasks'), 'the task graph was never asked to change the test command');
    assert.match(result.stdout, /tests base: npx tiny-runner \(run as node_modules\/\.bin\/tiny-runner\)/);
  });

  for (const [what, devDependencies] of [
    ['a runner the registry does not have', { 'no-such-runner': '^1.0.0' }],
    ['a runner that is not there at all', {}],
  ] as const) {
    it(`stops before any code is written for ${what}, the base report quoting why`, async () => {
      const runner = Object.keys(devDependencies)[0] ?? 'mocha';
      // The repository's own postinstall, which install scripts being off leaves unrun, is named with the cause.
      const own = Object.keys(devDependencies).length === 0;
      const scripts: Record<string, string> = own ? { postinstall: 'node scripts/link.js' } : {};
      const run = await changeSetUp(withNpmTest, { extra: { 'package.json': manifest(devDependencies, runner, scripts), '.gitignore': 'node_modules/\n' } });
      const result = await run.change([], { SOPWORKS_NPM_REGISTRY: npm.url });
      assert.equal(result.code, 1, result.stdout + result.stderr);
      // The outcome names the first cause: the install that failed, or the runner that is not there — not an exit code.
      assert.match(
        result.stdout,
        Object.keys(devDependencies).length > 0
          ? /Outcome\s+failed — the repository's tests could not be run on the base, so no code was written: the dependencies could not be installed \(npm install\): .*no-such-runner/
          : /Outcome\s+failed — the repository's tests could not be run on the base, so no code was written: `npm test` did not start: .*mocha: not found/,
      );
      const report = await fs.readFile(path.join(run.worktree, '.sopworks', 'documents', 'baseline-tests.md'), 'utf8');
      assert.match(report, /# Tests on the base: they could not run/);
      assert.match(report, Object.keys(devDependencies).length > 0 ? /could not be installed \(npm install\): .*no-such-runner/ : /mocha: not found/);
      assert.equal(git(run.repo, 'rev-list', '--count', `main..${BRANCH}`).trim(), '0', 'nothing was committed');
      // The advice is about the environment, never a stronger model or the SOP.
      assert.match(
        result.stdout,
        /^The repository's tests could not run here \(.*\), so no code was written: the cause is this machine's environment, not the model or the SOP/m,
      );
      assert.match(
        result.stdout,
        Object.keys(devDependencies).length > 0
          ? /^Make the package it could not get available to sopworks' sandbox: a registry it can reach/m
          : /^Make what the tests need available/m,
      );
      assert.match(result.stdout, /^Then start it again: `sopworks change .* "<request>"`/m);
      assert.doesNotMatch(result.stdout, /stronger model/);
      const ownLine =
        /mocha: not found — the repository's own install scripts did not run \(install scripts are off: the policy's dependencies\.scripts\): postinstall `node scripts\/link\.js`/;
      const ownAdvice =
        /^If they need what the repository's own install scripts write .* `dependencies: \{ scripts: true \}` in the policy\.yaml of a copy of sops\/change/m;
      if (own) {
        assert.match(result.stdout, ownLine);
        assert.match(result.stdout, ownAdvice);
        assert.match(report, ownLine);
      } else assert.doesNotMatch(result.stdout, /own install scripts/);
      assert.match(result.stdout, /^Do not merge sopworks\/let-greet-take-language-option: the run ended failed, not done\.$/m);
      assert.match(result.stdout, /^To drop it: git -C .* worktree remove .* --force && git -C .* branch -D sopworks\/let-greet-take-language-option$/m);
      const exchanges = await fs.readFile(path.join(run.worktree, '.sopworks', 'exchanges.jsonl'), 'utf8');
      assert.doesNotMatch(exchanges, /"action":"edit_file"/, 'no edit was asked for');
      // `resume` refuses it with the same advice, read from the base's first cause: never a stronger model.
      const board = await fs.readFile(path.join(run.worktree, '.sopworks', 'board.jsonl'));
      const resumed = await sopworks(['resume', run.worktree], { cwd: ROOT, env: { SOPWORKS_NPM_REGISTRY: npm.url } });
      assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
      assert.match(
        resumed.stderr,
        /cannot be continued\. The repository's tests could not run here \(.*\), so no code was written: the cause is this machine's environment, not the model or the SOP/,
      );
      assert.match(
        resumed.stderr,
        Object.keys(devDependencies).length > 0 ? /Make the package it could not get available to sopworks' sandbox/ : /Make what the tests need available/,
      );
      assert.match(resumed.stderr, /Then start it again: `sopworks change .* "<request>"`/);
      assert.doesNotMatch(resumed.stdout + resumed.stderr, /stronger model/);
      if (own) assert.match(resumed.stderr, ownAdvice);
      assert.deepEqual(await fs.readFile(path.join(run.worktree, '.sopworks', 'board.jsonl')), board, 'the refused resume wrote nothing');
      run.untouched();
    });
  }
});
