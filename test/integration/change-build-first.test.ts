/**
 * A change's tests that need the repository's own build first: a small repository whose tests import
 * `dist/greet.js`, which only its `build` script writes (dist/ is ignored, as build output is). The map
 * lists the build step and the entry point the repository does not hold; with the design naming
 * `npm run build` as its buildCommand, QA runs it in the tests' sandbox before the base's tests and
 * before each round (the change's own edit reaches the tests only through it), and the reports say so;
 * the branch holds no build output. Without it the base's first cause names the build that did not run;
 * a build that fails is the first cause itself. Real npm and node, offline.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { GREETINGS_BRANCH as BRANCH, changeSetUp, git, type Reply } from '../helpers/change-repo.ts';
import { BUBBLEWRAP, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs } from '../helpers/temp-dir.ts';

/** The repository's build: src/*.js copied to dist/, as a bundler would write them. */
const BUILD = `import fs from 'node:fs';
fs.mkdirSync('dist', { recursive: true });
for (const file of fs.readdirSync('src')) fs.copyFileSync(\`src/\${file}\`, \`dist/\${file}\`);
console.log('built', fs.readdirSync('dist').length, 'files');
`;
const FAILING_BUILD = "console.error('error: src/greet.js: unexpected token (3:7)');\nprocess.exit(2);\n";

const manifest = (build: string) =>
  `${JSON.stringify({ name: 'greetings', version: '0.3.0', type: 'module', main: 'dist/greet.js', scripts: { build, test: 'node --test' } }, null, 2)}\n`;

/** The repository as its authors keep it: tests import the built file, build output is ignored. */
const repository = (buildScript: string) => ({
  extra: {
    'package.json': manifest('node scripts/build.js'),
    'scripts/build.js': buildScript,
    '.gitignore': 'dist/\n',
    'test/greet.test.js': (BASE_TEST ?? '').replaceAll("'../src/", "'../dist/"),
  },
});
let BASE_TEST: string | null = null;

/** The scenario with the design's buildCommand set, and QA's tests importing what the build writes. */
const building =
  (buildCommand: string[] | null) =>
  (replies: Reply[]): Reply[] =>
    replies.map((r) => {
      if (r.role === 'architect' && r.action === 'write_design_delta') return { ...r, json: { ...(r.json as object), buildCommand } };
      if (r.role === 'qa' && r.action === 'write_change_tests') return { ...r, reply: r.reply!.replaceAll("'../src/", "'../dist/") };
      return r;
    });

const readDoc = (worktree: string, name: string) => fs.readFile(path.join(worktree, '.sopworks', 'documents', name), 'utf8');

describe("sopworks change: the repository's own build before its tests", function () {
  this.timeout(300_000);
  before(async function () {
    requireSystem(this, BUBBLEWRAP);
    BASE_TEST = await fs.readFile(path.join(import.meta.dirname, '..', 'fixtures', 'change-js', 'test', 'greet.test.js'), 'utf8');
  });
  after(removeTempDirs);

  it('builds first on the base and before each round, the reports saying so, and the branch holds no build output', async () => {
    const run = await changeSetUp(building(['npm', 'run', 'build']), repository(BUILD));
    const result = await run.change();
    assert.equal(result.code, 0, result.stdout + result.stderr);
    // The build, then the tests: in that order, each round.
    assert.match(result.stdout, /tests base: building first: npm run build\n.*tests base: built\n.*tests base: node --test\n/);
    assert.match(result.stdout, /tests base: passed \(4 passed, 0 failed\)/);
    // The round's tests import dist/: they pass only because the change's src/greet.js was built again before them.
    assert.match(result.stdout, /tests round 1: building first: npm run build\n.*tests round 1: built\n.*tests round 1: node --test\n/);
    assert.match(result.stdout, /tests round 1: passed \(8 passed, 0 failed\)/);
    assert.match(result.stdout, /Outcome\s+done/);
    const board = (await fs.readFile(path.join(run.worktree, '.sopworks', 'board.jsonl'), 'utf8')).trim().split('\n');
    const payloads = board.map((line) => JSON.parse(line) as { type?: string; payload?: Record<string, unknown> }).filter((m) => m.type);
    const map = payloads.find((m) => m.type === 'RepositoryMap')!.payload as { tests: { builds: { argv: string[]; source: string }[]; unbuilt: string[] } };
    assert.deepEqual(map.tests.builds, [{ argv: ['npm', 'run', 'build'], source: 'package.json scripts.build: node scripts/build.js' }]);
    assert.deepEqual(map.tests.unbuilt, ['package.json main: dist/greet.js']);
    const base = payloads.find((m) => m.type === 'BaselineTests')!.payload as { build: { command: string[]; exitCode: number; output: string } };
    assert.deepEqual(base.build.command, ['npm', 'run', 'build']);
    assert.equal(base.build.exitCode, 0);
    assert.match(base.build.output, /built 2 files/);
    assert.match(await readDoc(run.worktree, 'design.md'), /Built first with: `npm run build`/);
    assert.match(await readDoc(run.worktree, 'baseline-tests.md'), /Built first with: `npm run build` \(exit code 0\)/);
    assert.match(await readDoc(run.worktree, 'test-reports/round-1.md'), /Built first with: `npm run build` \(exit code 0\)/);
    assert.ok(!git(run.repo, 'ls-tree', '-r', '--name-only', BRANCH).includes('dist/'), 'no build output on the branch');
    await assert.rejects(fs.stat(path.join(run.worktree, 'dist')), 'nor left in the work tree');
    run.untouched();
  });

  it('names the declared build that did not run when the base cannot load what it writes', async () => {
    const run = await changeSetUp(building(null), repository(BUILD));
    const result = await run.change();
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /Outcome\s+failed — the repository's tests could not be run on the base, so no code was written: `node --test` did not start: .*Cannot find module .*dist\/greet\.js.* — the repository declares a build, which the design did not name, so none ran before the tests: `npm run build` \(package\.json scripts\.build: node scripts\/build\.js\)/,
    );
    assert.match(result.stdout, /say so in the request — the design's `buildCommand` names the build/);
    assert.equal(git(run.repo, 'rev-list', '--count', `main..${BRANCH}`).trim(), '0', 'nothing was committed');
    run.untouched();
  });

  it('stops at a build that fails on the base, naming it as the first cause with the line that says why', async () => {
    const run = await changeSetUp(building(['npm', 'run', 'build']), repository(FAILING_BUILD));
    const result = await run.change();
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /Outcome\s+failed — the repository's tests could not be run on the base, so no code was written: the repository's build `npm run build` failed \(exit code 2\), so the tests did not run: error: src\/greet\.js: unexpected token \(3:7\)/,
    );
    assert.match(result.stdout, /^Make what the repository's build needs available/m);
    const report = await readDoc(run.worktree, 'baseline-tests.md');
    assert.match(report, /the build failed, so the tests did not run/);
    assert.match(report, /Command: `npm run build`/);
    assert.match(report, /unexpected token/);
    assert.equal(git(run.repo, 'rev-list', '--count', `main..${BRANCH}`).trim(), '0', 'nothing was committed');
    run.untouched();
  });
});
