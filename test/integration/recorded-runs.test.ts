/**
 * Runs a capable model made, replayed (issue 36): a model briefed to answer each request from the request
 * alone — never reading sopworks, its docs or its output — answered every prompt of the default company
 * through the relay endpoint of ../shared/tools, and `--record` kept its replies (test/fixtures/recorded/).
 * Replayed against today's prompts, schemas and checks, each run still ends as it did: done, the tests it
 * generated passing, every acceptance criterion proven (or, where it named none, the run criteria-unmet
 * saying so, or stopping at the step that asks for them, which its recording has no reply for), and no
 * reply refused. A check that starts refusing
 * what a capable model writes fails here. The figures of these runs are in docs/performance.md.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sopworks } from '../helpers/in-process.ts';
import { ROOT } from '../helpers/paths.ts';
import { BUBBLEWRAP, CARGO, GO, PYTEST, PYTHON, requireSystem, type SystemRequirement } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const RECORDED = path.join(ROOT, 'test', 'fixtures', 'recorded');
const REPOS = path.join(ROOT, 'test', 'fixtures', 'repos');

interface RecordedRun {
  file: string;
  what: string;
  /** What its tests need here: a Python or Go project's run only under bubblewrap (the fallback sandbox is Node's). */
  needs: SystemRequirement[];
  /** For a change: the real repository it changed (test/fixtures/repos/). */
  repo?: string;
  /** How the run ended, as its summary says it, and its exit code. */
  outcome: RegExp;
  code: number;
  /** The tests that passed, when the runner names them. */
  tests: number | null;
  /** The re-asks the model's replies needed (each a reply a check refused). */
  reasks: number;
  /** The criteria proven of all, when the tests cite them (docs/performance.md says why two runs prove none). */
  criteria: { proven: number; total: number };
  /** For a change: its branch's commit subjects, oldest first. */
  subjects?: string[];
  /** Settings of the run's environment. */
  env?: Record<string, string>;
  /** What its progress says besides the outcome. */
  says?: RegExp;
}

const RUNS: RecordedRun[] = [
  {
    file: 'mdtable-node.yaml',
    what: 'a new Node.js CLI (JSON to a Markdown table)',
    needs: [],
    outcome: /^done — all tests pass$/,
    code: 0,
    tests: 23,
    reasks: 0,
    criteria: { proven: 17, total: 17 },
  },
  {
    file: 'pystats-python.yaml',
    what: 'a new Python CLI (statistics of numbers)',
    needs: [PYTHON, BUBBLEWRAP],
    outcome: /^done — all tests pass$/,
    code: 0,
    tests: 24,
    reasks: 0,
    criteria: { proven: 17, total: 17 },
  },
  {
    file: 'sumcheck-go.yaml',
    what: 'a new Go CLI (checking files against a SHA-256 list)',
    needs: [GO, BUBBLEWRAP],
    outcome: /^done — all tests pass$/,
    code: 0,
    tests: 21,
    reasks: 0,
    criteria: { proven: 19, total: 19 },
  },
  {
    file: 'envdiff-node.yaml',
    what: 'a new Node.js CLI (two .env files compared), each file reviewed by the Reviewing Engineer',
    needs: [],
    outcome: /^done — all tests pass$/,
    code: 0,
    tests: 31,
    reasks: 0,
    criteria: { proven: 24, total: 24 },
  },
  {
    file: 'iniq-python.yaml',
    what: 'a new Python CLI (a value of an INI file), recorded with the format before each file and a draft in the documents',
    needs: [PYTHON, BUBBLEWRAP],
    outcome: /^done — all tests pass$/,
    code: 0,
    tests: 31,
    reasks: 0,
    criteria: { proven: 21, total: 21 },
  },
  {
    file: 'colstat-rust.yaml',
    what: 'a new Rust CLI (statistics of CSV columns; cargo test)',
    needs: [CARGO, BUBBLEWRAP],
    outcome: /^done — all tests pass$/,
    code: 0,
    tests: 25,
    reasks: 0,
    criteria: { proven: 24, total: 24 },
  },
  {
    file: 'redact-change.yaml',
    what: 'a change to @pinojs/redact, a real repository (an onRedact option)',
    needs: [],
    repo: 'pinojs-redact',
    outcome: /^done — the existing tests and the change's tests pass$/,
    code: 0,
    tests: 89,
    reasks: 0,
    criteria: { proven: 25, total: 25 },
    subjects: [
      'feat: Add an onRedact option that reports the path of every… (index.js)',
      'feat: Add an onRedact option that reports the path of… (index.d.ts)',
      'docs: Add an onRedact option that reports the path of… (README.md)',
      'test: Add an onRedact option that reports the path of every redacted…',
    ],
  },
  {
    file: 'pflag-change.yaml',
    what: 'a change to spf13/pflag, a real Go repository of 90 files (a Uint8Slice flag type)',
    needs: [GO, BUBBLEWRAP],
    repo: 'spf13-pflag',
    outcome: /^done — the existing tests and the change's tests pass$/,
    code: 0,
    tests: 201,
    reasks: 0,
    criteria: { proven: 18, total: 18 },
    subjects: ['feat: Add a Uint8Slice flag type ([]uint8… (uint8_slice.go)', 'test: Add a Uint8Slice flag type ([]uint8, comma-separated…'],
    says: /tests base: passed \(183 passed, 0 failed\)/,
  },
  {
    file: 'fnv-change.yaml',
    what: 'a change to servo/rust-fnv, a real Rust crate of one source file that carries its own tests (a 32-bit FNV-1a beside the 64-bit one)',
    needs: [CARGO, BUBBLEWRAP],
    repo: 'servo-rust-fnv',
    outcome: /^done — the existing tests and the change's tests pass$/,
    code: 0,
    tests: 19,
    reasks: 0,
    criteria: { proven: 15, total: 15 },
    subjects: [
      'feat: Add 32-bit FNV-1a hasher, aliases and const fnv_hash32 (lib.rs)',
      'docs: Add 32-bit FNV-1a hasher, aliases and const fnv_hash32 (README.md)',
      'test: Add 32-bit FNV-1a hasher, aliases and const fnv_hash32',
    ],
    says: /tests base: passed \(4 passed, 0 failed\)/,
  },
  {
    file: 'jsonpointer-change.yaml',
    what: 'a change to python-json-pointer, a real repository whose dev requirements cannot be installed (parent and name properties)',
    needs: [PYTHON, BUBBLEWRAP],
    repo: 'python-json-pointer',
    // Its requirements-dev.txt (wheel, setuptools, coverage, flake8) from an index that refuses: the base's
    // tests run without them, as they did when pypi.org could not be reached.
    env: { SOPWORKS_PIP_INDEX_URL: 'http://127.0.0.1:9/simple' },
    outcome: /^done — the existing tests and the change's tests pass$/,
    code: 0,
    tests: 53,
    reasks: 0,
    criteria: { proven: 24, total: 24 },
    subjects: [
      'feat: Add read-only `parent` and `name` properties to… (jsonpointer.py)',
      'docs: Add read-only `parent` and `name` properties… (doc/tutorial.rst)',
      'test: Add read-only `parent` and `name` properties to JsonPointer',
    ],
    says: /tests base: the dependencies could not be installed \(pip install\): .+; running the tests without them\n(?:.*\n)?.*tests base: passed \(28 passed, 0 failed\)/,
  },
  {
    file: 'markupsafe-change.yaml',
    what: "a change to pallets/markupsafe, a real src-layout repository whose test requirements cannot be installed (escape()'s quote argument)",
    needs: [PYTHON, PYTEST, BUBBLEWRAP],
    repo: 'pallets-markupsafe',
    // Its test dependency group (pytest) from an index that refuses: the machine's pytest runs the tests,
    // and imports the sources in src/, not a MarkupSafe installed on the machine.
    env: { SOPWORKS_PIP_INDEX_URL: 'http://127.0.0.1:9/simple' },
    outcome: /^done — the existing tests and the change's tests pass$/,
    code: 0,
    tests: 97,
    reasks: 0,
    criteria: { proven: 21, total: 21 },
    subjects: [
      'feat: Add keyword-only quote argument to… (src/markupsafe/__init__.py)',
      'docs: Add keyword-only quote argument to escape()… (docs/escaping.rst)',
      'docs: Add keyword-only quote argument to escape() and… (CHANGES.rst)',
      'test: Add keyword-only quote argument to escape() and escape_silent()',
    ],
    says: /src\/ put on the environment's path \(a src layout\)[^\n]*\n(?:.*\n)*?.*tests base: passed \(39 passed, 0 failed\)/,
  },
  {
    file: 'sqlparse-change.yaml',
    what: "a change to andialbrecht/sqlparse, a real repository whose dev group cannot be installed, where QA rewrote its own test that read a criterion too strictly (format()'s ensure_semicolon option)",
    needs: [PYTHON, PYTEST, BUBBLEWRAP],
    repo: 'andialbrecht-sqlparse',
    // Its uv dependency group (pytest, ruff, sphinx, hatch…) from an index that refuses: the venv the
    // failed install left holds nothing, and the machine's `python3 -m pytest` runs the base's tests.
    env: { SOPWORKS_PIP_INDEX_URL: 'http://127.0.0.1:9/simple' },
    outcome: /^done — the existing tests and the change's tests pass$/,
    code: 0,
    tests: 552,
    reasks: 0,
    criteria: { proven: 27, total: 27 },
    subjects: [
      'feat: Add an ensure_semicolon option to… (sqlparse/filters/others.py)',
      'feat: Add an ensure_semicolon option to… (sqlparse/filters/__init__.py)',
      'feat: Add an ensure_semicolon option to… (sqlparse/formatter.py)',
      'docs: Add an ensure_semicolon option to… (docs/source/api.rst)',
      'feat: Add an ensure_semicolon option to sqlparse.format() (CHANGELOG)',
      'test: Add an ensure_semicolon option to sqlparse.format()',
      'test: Add an ensure_semicolon option to sqlparse.format()',
    ],
    // Round 1 failed on QA's own AC-12 test; its triage named no source file, so no BugReport went to the
    // Engineer, and the rewritten test passed in round 2.
    says: /running the tests without them\n(?:.*\n)*?.*tests base: passed \(506 passed, 0 failed\)(?:.*\n)*?.*tests round 1: failed[^\n]*\n(?:(?![^\n]*BugReport)[^\n]*\n)*?[^\n]*tests round 2: passed/,
  },
];

/** The repository's files made a git repository of one commit, as a person's clone would be. */
async function realRepository(name: string): Promise<string> {
  const repo = path.join(await tempDir('sopworks-recorded-repo-'), name);
  await fs.cp(path.join(REPOS, name), repo, { recursive: true });
  const git = (...args: string[]) =>
    exec('git', args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_DATE: '2025-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2025-01-01T00:00:00Z' } });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('-c', 'user.name=Upstream', '-c', 'user.email=upstream@example.com', 'commit', '-q', '-m', `${name} as published`);
  return repo;
}

describe("a capable model's recorded runs, replayed", function () {
  this.timeout(600_000);
  after(removeTempDirs);

  for (const run of RUNS) {
    it(`${run.what}: ends as it did, its tests passing, ${run.reasks} re-ask(s), ${run.criteria.proven} of ${run.criteria.total} criteria proven`, async function () {
      requireSystem(this, ...run.needs);
      const out = await tempDir('sopworks-recorded-');
      const scenario = path.join(RECORDED, run.file);
      const args = run.repo
        ? ['change', await realRepository(run.repo), '--llm', `scripted:${scenario}`, '--out', out]
        : ['run', '--llm', `scripted:${scenario}`, '--out', out];
      const result = await sopworks(args, { cwd: out, ...(run.env ? { env: run.env } : {}) });
      const said = `${result.stdout}\n${result.stderr}`;
      assert.equal(result.code, run.code, said);
      assert.match(result.stdout.match(/^Outcome {3}(.*)$/m)?.[1] ?? '', run.outcome, said);
      if (run.tests !== null) {
        // The Tests line is the last round of the tests, not the program's run once after it.
        assert.match(result.stdout, new RegExp(`^Tests {5}round \\d+ passed \\(${run.tests} passed, 0 failed\\)$`, 'm'), said);
      } else assert.match(result.stdout, /^Tests {5}round \d+ passed \(exit code 0\)$/m, said);
      assert.equal((said.match(/reply invalid \(attempt \d+\), asking again/g) ?? []).length, run.reasks, said);
      if (run.says) assert.match(said, run.says, said);

      const project = result.stdout.match(/^Review {4}sopworks review .*the record: (.+)\/\.sopworks\/\)$/m)?.[1];
      assert.ok(project, said);
      // The run's record counts them (re-asks are its repairs); no transport retry either.
      const record = JSON.parse(await fs.readFile(path.resolve(out, project, '.sopworks', 'run.json'), 'utf8'));
      assert.deepEqual([record.usage.total.repairs, record.usage.total.retries], [run.reasks, 0], 'the run record counts them; no retry');
      const { proven, total } = run.criteria;
      if (run.repo) {
        // A change's coverage is kept in its run folder, not committed on the branch a maintainer merges.
        const coverage = await fs.readFile(path.resolve(out, project, '.sopworks', 'documents', 'test-reports', 'coverage.md'), 'utf8');
        assert.match(coverage, new RegExp(`${proven} of ${total} criteria proven`), coverage);
        // Its commits say what changed, whatever its tasks' wording (theirs are written as numbered instructions).
        const { stdout: log } = await exec('git', ['log', '--reverse', '--format=%s', 'main..HEAD'], { cwd: path.resolve(out, project) });
        assert.deepEqual(log.trim().split('\n'), run.subjects, log);
      } else {
        const { stdout: log } = await exec('git', ['log', '--format=%s'], { cwd: path.resolve(out, project) });
        assert.match(log, new RegExp(`coverage after round \\d+, ${proven} of ${total} criteria proven`), log);
      }
    });
  }
});
