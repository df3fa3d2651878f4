/**
 * The shipped change suite (examples/eval/change/suite.yaml) runs as a user runs it: `sopworks eval`
 * brings each of its change tasks — JavaScript (ES modules, CommonJS), TypeScript, Python (three: one
 * declaring `*_test.py` in tox.ini) and Go — to `done` on its scripted scenario, offline (TypeScript's compiler from a registry on this
 * machine), and the suite's checks pass in each changed repository. Each task's repository is made from
 * its fixture folder without touching it, the change lands on a branch of that copy, and the table counts
 * what the change wrote, not the repository it was given.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SuiteResults } from '../../src/apps/eval/index.ts';
import { git, testsQaWrites } from '../helpers/change-repo.ts';
import { sopworks } from '../helpers/in-process.ts';
import { type NpmRegistry, packInstalled, startNpmRegistry } from '../helpers/npm-registry.ts';
import { ROOT } from '../helpers/paths.ts';
import { BUBBLEWRAP, GO, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const SUITE = path.join(ROOT, 'examples', 'eval', 'change', 'suite.yaml');
const FIXTURES = path.join(ROOT, 'examples', 'eval', 'change', 'repos');

/** Every file of the fixture folders, with its size: they must come out as they went in. */
async function fixtureFiles(): Promise<string[]> {
  const entries = await fs.readdir(FIXTURES, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries.map(async (e) => {
      const file = path.join(e.parentPath, e.name);
      return `${path.relative(FIXTURES, file)}${e.isFile() ? ` ${(await fs.stat(file)).size}` : '/'}`;
    }),
  ).then((list) => list.sort());
}

describe('eval: the shipped change suite', function () {
  this.timeout(600_000);
  let npm: NpmRegistry;

  before(async function () {
    requireSystem(this, BUBBLEWRAP, PYTHON, GO);
    npm = await startNpmRegistry();
    const packs = await tempDir();
    for (const pkg of ['typescript', '@typescript/typescript-linux-x64']) await npm.publish(await packInstalled(path.join(ROOT, 'node_modules', pkg), packs));
  });
  after(async () => {
    await npm?.stop();
    await removeTempDirs();
  });

  it('brings its change tasks to done offline, each checked in its changed repository', async () => {
    const fixtures = await fixtureFiles();
    const out = path.join(await tempDir('sopworks-eval-change-'), 'eval');
    const run = await sopworks(['eval', SUITE, '--out', out, '--concurrency', '3'], { cwd: ROOT, env: { SOPWORKS_NPM_REGISTRY: npm.url } });
    assert.equal(run.code, 0, run.stdout + run.stderr);

    const results = SuiteResults.parse(JSON.parse(await fs.readFile(path.join(out, 'eval.json'), 'utf8')));
    assert.deepEqual(
      results.specs.map((s) => [s.name, s.outcome, s.checks.map((c) => (c.passed ? 'pass' : c.output))]),
      ['greetings-js', 'slugify-cjs', 'units-ts', 'textstats-py', 'tempconv-py', 'colours-py', 'homedir-go'].map((name) => [name, 'done', ['pass', 'pass']]),
    );
    for (const spec of results.specs) {
      assert.equal(spec.tests?.allPassed, true, `${spec.name}: its last test round passed`);
      // Done means covered: every criterion of its change request, what it must keep working too, proven.
      assert.ok(
        spec.criteria && spec.criteria.p0Total > 0 && spec.criteria.p0Proven === spec.criteria.p0Total,
        `${spec.name}: ${JSON.stringify(spec.criteria)}`,
      );
      // What the change wrote: its source file(s) and QA's test file, a handful of lines — not the whole repository.
      assert.ok(spec.files >= 2 && spec.files <= 3, `${spec.name} changed ${spec.files} code files`);
      assert.ok(spec.lines > 5 && spec.lines < 40, `${spec.name} added ${spec.lines} lines`);
    }
    // The repository's own tests and QA's, each a test() — counted from the fixture and the scenario, not written in.
    const ownTests = ((await fs.readFile(path.join(FIXTURES, 'units-ts', 'test', 'duration.test.mjs'), 'utf8')).match(/^test\(/gm) ?? []).length;
    const qaTests = await testsQaWrites(path.join(path.dirname(SUITE), 'units-ts.yaml'));
    assert.ok(ownTests > 0 && qaTests > 0);
    assert.equal(
      results.specs.find((s) => s.name === 'units-ts')?.tests?.counts?.passed,
      ownTests + qaTests,
      "units-ts's tests compiled with its own typescript, and ran",
    );

    // Each change is on a branch of the task's own repository, made from the fixture as it ships.
    const repo = (name: string) => path.join(out, '.repositories', name);
    assert.match(git(repo('homedir-go'), 'show', 'sopworks/make-homedir-expand-turn-bare:homedir.go'), /if path == "~" \{\n\t\treturn home, nil/);
    assert.match(
      git(repo('units-ts'), 'diff', 'main...sopworks/let-parseduration-accept-seconds', '--', 'src/duration.ts'),
      /^\+const UNITS = \{ h: 3_600_000, m: 60_000, s: 1_000 \};$/m,
    );
    assert.equal(
      git(repo('slugify-cjs'), 'log', '--format=%an <%ae> %ad', '--date=iso-strict', 'main').trim(),
      'sopworks eval <eval@sopworks.local> 2024-01-01T00:00:00+00:00',
    );
    assert.deepEqual(await fixtureFiles(), fixtures, 'the fixture folders are as they were: no .git, no __pycache__, no node_modules');
  });
});
