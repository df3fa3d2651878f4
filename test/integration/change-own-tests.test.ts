/**
 * A change run tests a repository the way the repository does: on a colour library in the shape such
 * libraries have (tests named `*_test.py`, declared in tox.ini and a cheat-sheet Makefile; two tests that
 * fail wherever NO_COLOR is set), the map shows the declared command with where it was read, the base runs
 * all of its tests as on the user's machine — sopworks itself runs here with NO_COLOR=1 — and the run
 * ends done. A bare `python3 -m unittest`, which runs none of them, is "no tests ran": the run stops
 * before any code, its outcome saying so. The prompts offer only what their step can do, and a README
 * the Architect read whole is not shown clipped beside it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { git, type Reply, testsQaWrites } from '../helpers/change-repo.ts';
import { sopworks } from '../helpers/in-process.ts';
import { ROOT } from '../helpers/paths.ts';
import { BUBBLEWRAP, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const FIXTURE = path.join(ROOT, 'examples', 'eval', 'change', 'repos', 'colours-py');
const SCENARIO = path.join(ROOT, 'examples', 'eval', 'change', 'colours-py.yaml');

interface Exchange {
  action: string;
  messages: { content: string }[];
}

async function colours(edit: (replies: Reply[]) => Reply[] = (r) => r) {
  const dir = await tempDir('sopworks-own-tests-');
  const repo = path.join(dir, 'colours');
  await fs.cp(FIXTURE, repo, { recursive: true });
  const commit = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd: repo, encoding: 'utf8' });
  commit('init', '--quiet', '--initial-branch=main');
  commit('add', '.');
  commit('commit', '--quiet', '-m', 'colours');
  const scenario = parse(await fs.readFile(SCENARIO, 'utf8')) as { replies: Reply[] };
  scenario.replies = edit(scenario.replies);
  const scenarioFile = path.join(dir, 'scenario.yaml');
  await fs.writeFile(scenarioFile, stringify(scenario));
  const out = path.join(dir, 'out');
  const result = await sopworks(['change', repo, '--llm', `scripted:${scenarioFile}`, '--out', out], { cwd: ROOT });
  const worktree = path.join(out, (await fs.readdir(out)).find((name) => name.startsWith('colours-'))!);
  const exchanges = (await fs.readFile(path.join(worktree, '.sopworks', 'exchanges.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Exchange);
  const sent = (action: string) =>
    exchanges
      .filter((e) => e.action === action)
      .map((e) => e.messages.at(-1)!.content)
      .join('\n');
  const branch = git(repo, 'branch', '--list', '--format=%(refname:short)', 'sopworks/*').trim();
  return { repo, branch, result, exchanges, sent };
}

describe("sopworks change: the repository's own way of testing", function () {
  this.timeout(300_000);
  before(function () {
    requireSystem(this, BUBBLEWRAP, PYTHON);
  });
  after(removeTempDirs);

  it('runs the command tox.ini and the Makefile declare, on every test as the user would run it, and ends done', async () => {
    const { repo, branch, result, exchanges, sent } = await colours();
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /tests base: python3 -m unittest discover -p \*_test\.py/);
    // NO_COLOR=1 is set for sopworks here (test/helpers/run-cli.ts): the library's own environment tests pass all the same.
    const base = Number(result.stdout.match(/tests base: passed \((\d+) passed, 0 failed\)/)?.[1]);
    const declared = await Promise.all(
      ['ansi_test.py', 'environment_test.py'].map(
        async (f) => (await fs.readFile(path.join(FIXTURE, 'colours', 'tests', f), 'utf8')).match(/def test_/g)!.length,
      ),
    );
    assert.equal(base, declared[0]! + declared[1]!, 'every test of the base ran, as tox.ini runs them');
    assert.match(result.stdout, new RegExp(`tests round 1: passed \\(${base + (await testsQaWrites(SCENARIO))} passed, 0 failed\\)`));
    assert.match(git(repo, 'show', `${branch}:colours/ansi.py`), /def strip\(text\):/);

    // The map names the declared command and where it was read; QA is told where the runner looks.
    assert.match(
      sent('write_change_request'),
      /^- `python3 -m unittest discover -p \*_test\.py` — tox\.ini \[testenv\] commands: python -m unittest discover -p \*_test\.py; also Makefile target test: \$\(python\) -m unittest discover -p \*_test\.py$/m,
    );
    assert.match(sent('write_change_tests'), /name it as the existing ones are named \(such as `colours\/tests\/ansi_test\.py`\)/);
    // QA is shown the existing tests nearest to the change, whole, to write its own as they are written (colours/ansi.py changed).
    const tests = sent('write_change_tests');
    const [ansiTest, environmentTest] = await Promise.all(
      ['ansi_test.py', 'environment_test.py'].map((f) => fs.readFile(path.join(FIXTURE, 'colours', 'tests', f), 'utf8')),
    );
    assert.ok(tests.includes(`### colours/tests/ansi_test.py (named after colours/ansi.py)\n\`\`\`\n${ansiTest}\`\`\``), tests);
    assert.ok(tests.includes(`### colours/tests/environment_test.py (imports colours/__init__.py)\n\`\`\`\n${environmentTest}\`\`\``), tests);
    assert.match(tests, /## The repository's tests nearest to this change: write yours as these are written\n/);

    // Only the step that can ask to read is told it may.
    for (const exchange of exchanges) {
      const offers = /ask for the content|you can ask to read/.test(exchange.messages.at(-1)!.content);
      assert.equal(offers, exchange.action === 'choose_files', `${exchange.action} ${offers ? 'offers' : 'does not offer'} to read`);
    }
    // The README, clipped in the map, was asked for: the design prompt shows it whole, once, and not clipped again.
    const design = sent('write_design_delta');
    assert.match(sent('write_change_request'), /more characters\)/, 'the map clips the README');
    assert.match(design, /### README\.md\n`{3,}\n# colours\n[\s\S]*MIT\. Written for sopworks' change suite/);
    // (The map every request opens with is the one the run published, the README clipped in it; after it, not again.)
    assert.ok(design.includes('# Your part\n'), design);
    assert.doesNotMatch(design.slice(design.indexOf('# Your part\n')), /more characters\)/);
    assert.equal(design.slice(design.indexOf('# Your part\n')).split('# colours\n').length - 1, 1, 'the README once after the documents');
  });

  it('stops before any code when the command runs no test, and the outcome says so', async () => {
    const bare = (replies: Reply[]) =>
      replies.map((r) => (r.action === 'write_design_delta' ? { ...r, json: { ...(r.json as object), testCommand: ['python3', '-m', 'unittest'] } } : r));
    const { repo, branch, result } = await colours(bare);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /tests base: NO TESTS RAN \(0 passed, 0 failed\)/);
    assert.match(
      result.stdout,
      /Outcome\s+failed — the repository's tests could not be run on the base, so no code was written: no tests ran: `python3 -m unittest` ran 0 tests \(exit code 0\)/,
    );
    assert.equal(git(repo, 'diff', '--name-only', `main...${branch}`, '--', 'colours'), '', 'no code was written');
  });
});
