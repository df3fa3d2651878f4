/**
 * The repository's own way of testing, read from its files (src/capabilities/change/map/test-commands.ts):
 * what tox.ini, a Makefile, a justfile, a noxfile, pyproject.toml and package.json scripts declare, where
 * each came from, as sopworks runs it — and what the repository's files imply when nothing declares it.
 * The fixtures are written here in the shapes real repositories have (a colour library's tox.ini and
 * cheat-sheet Makefile, a pnpm package whose test script lints first).
 */
import assert from 'node:assert/strict';
import { checkToolchains } from '../../../../../src/capabilities/change/check-toolchains.ts';
import { commandChain, shellWords } from '../../../../../src/capabilities/change/map/declared/shell-words.ts';
import { type TestCommand, testCommands } from '../../../../../src/capabilities/change/map/test-commands.ts';
import { committedRepository } from '../../../../helpers/committed-repository.ts';
import { removeTempDirs } from '../../../../helpers/temp-dir.ts';

const commandsOf = (files: Record<string, string>, others: string[] = []): Promise<TestCommand[]> =>
  testCommands([...Object.keys(files), ...others], async (file) => files[file] ?? null);

const argvs = (commands: TestCommand[]) => commands.map((c) => c.argv.join(' '));

const COLOURS_TOX = '[tox]\nisolated_build = true\nenvlist = py{39, 310, 311}\n\n[testenv]\ncommands = python -m unittest discover -p *_test.py\n';
const COLOURS_MAKEFILE = [
  'virtualenv=~/.virtualenvs/colours',
  'python=$(virtualenv)/bin/python',
  '',
  'test: ## Run tests',
  '\t$(python) -m unittest discover -p *_test.py',
  '.PHONY: test',
  '',
].join('\n');
const COLOURS_TESTS = ['colours/__init__.py', 'colours/tests/__init__.py', 'colours/tests/ansi_test.py', 'colours/tests/winterm_test.py'];

describe("a repository's declared test commands", () => {
  after(removeTempDirs);
  it("reads tox.ini's and the Makefile's unittest command as one, says both places, and offers make test after it", async () => {
    const commands = await commandsOf({ 'tox.ini': COLOURS_TOX, Makefile: COLOURS_MAKEFILE }, COLOURS_TESTS);
    assert.deepEqual(argvs(commands), ['python3 -m unittest discover -p *_test.py', 'make test']);
    assert.equal(
      commands[0]!.source,
      'tox.ini [testenv] commands: python -m unittest discover -p *_test.py; also Makefile target test: $(python) -m unittest discover -p *_test.py',
    );
    assert.deepEqual(
      commands.map((c) => c.suite),
      ['python', 'python'],
    );
    assert.deepEqual(
      commands[0]!.needs.map((n) => n.program),
      ['python3'],
    );
  });

  it('without a declaration, unittest is told the pattern the test files follow (a bare discovery would run 0 tests)', async () => {
    assert.deepEqual(argvs(await commandsOf({}, COLOURS_TESTS)), ['python3 -m unittest discover -p *_test.py']);
    // A tests/ folder that is no package: discovery starts there.
    assert.deepEqual(argvs(await commandsOf({}, ['calc.py', 'tests/test_calc.py'])), ['python3 -m unittest discover -s tests -t .']);
    assert.deepEqual(argvs(await commandsOf({}, ['calc.py', 'tests/__init__.py', 'tests/test_calc.py'])), ['python3 -m unittest']);
    assert.deepEqual(argvs(await commandsOf({ 'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n' }, ['tests/test_calc.py'])), [
      'python3 -m pytest',
    ]);
  });

  it('takes the test runner out of a pnpm script that lints first, before npm test (which needs pnpm)', async () => {
    const manifest = {
      name: 'merge-defaults',
      scripts: { lint: 'oxlint src', 'test:types': 'tsc --noEmit', test: 'pnpm lint && pnpm test:types && pnpm vitest run' },
      devDependencies: { vitest: '^4.1.0' },
      packageManager: 'pnpm@10.0.0',
    };
    const commands = await commandsOf({ 'package.json': JSON.stringify(manifest), 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n" }, ['test/defaults.test.ts']);
    assert.deepEqual(argvs(commands), ['npx vitest run', 'npm test']);
    assert.equal(commands[0]!.source, 'the test runner package.json scripts.test calls: pnpm lint && pnpm test:types && pnpm vitest run');
    assert.deepEqual(
      commands[1]!.needs.map((n) => n.program),
      ['npm', 'pnpm'],
    );
  });

  it('keeps a script that builds before it tests first, and offers the test:… scripts that call a runner', async () => {
    const manifest = { scripts: { test: 'tsc -p . && node --test', 'test:unit': 'mocha test/unit', 'test:lint': 'eslint .' } };
    assert.deepEqual(argvs(await commandsOf({ 'package.json': JSON.stringify(manifest) }, ['test/a.test.js'])), [
      'npm test',
      'node --test',
      'npm run test:unit',
    ]);
    assert.deepEqual(argvs(await commandsOf({ 'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}' }, [])), []);
  });

  it('reads pyproject.toml (hatch, poe, tox), a noxfile, a justfile, setup.cfg, go.mod and Cargo.toml', async () => {
    const hatch = '[tool.hatch.envs.default.scripts]\ntest = "pytest {args:tests}"\nlint = "ruff check ."\n';
    assert.deepEqual(argvs(await commandsOf({ 'pyproject.toml': hatch }, ['tests/test_a.py'])), ['pytest tests']);
    const poe = '[tool.poe.tasks]\ntest = { cmd = "python -m pytest -q" }\n';
    assert.deepEqual(argvs(await commandsOf({ 'pyproject.toml': poe }, ['tests/test_a.py'])), ['python3 -m pytest -q']);
    const toxToml = '[tool.tox]\nlegacy_tox_ini = """\n[testenv]\ncommands =\n    coverage run -m pytest {posargs:tests}\n"""\n';
    assert.deepEqual(argvs(await commandsOf({ 'pyproject.toml': toxToml }, ['tests/test_a.py'])), ['python3 -m pytest tests']);
    // pytest-cov's options measure, and without the plugin pytest refuses them (schedule's tox.ini).
    const schedule =
      '[testenv]\ndeps =\n    pytest\n    pytest-cov\ncommands =\n    py.test test_schedule.py schedule -v --cov schedule --cov-report term-missing\n';
    assert.deepEqual(argvs(await commandsOf({ 'tox.ini': schedule }, ['test_schedule.py'])), ['py.test test_schedule.py schedule -v']);
    const covs = '[testenv]\ncommands = python -m pytest --cov=pkg --cov --cov-branch --cov-fail-under 90 --no-cov-on-fail -x tests\n';
    assert.deepEqual(argvs(await commandsOf({ 'tox.ini': covs }, ['tests/test_a.py'])), ['python3 -m pytest -x tests']);
    // A place of tox's own environment names nothing outside tox: the option that holds it goes (MarkupSafe's pyproject.toml).
    const toxNative =
      '[tool.tox.env_run_base]\ncommands = [[\n    "pytest", "-v", "--tb=short", "--basetemp={env_tmp_dir}",\n    {replace = "posargs", default = [], extend = true},\n]]\n';
    assert.deepEqual(argvs(await commandsOf({ 'pyproject.toml': toxNative }, ['tests/test_a.py'])), ['pytest -v --tb=short']);
    const toxIni =
      '[testenv]\ncommands = pytest --basetemp {envtmpdir} --junitxml={envlogdir}/junit.xml -p no:cacheprovider {env:PYTEST_ADDOPTS:-q} {posargs}\n';
    assert.deepEqual(argvs(await commandsOf({ 'tox.ini': toxIni }, ['tests/test_a.py'])), ['pytest -p no:cacheprovider -q']);
    // The package as tox installed it is the repository's own (boltons' tox.ini).
    const boltons = '[testenv]\nchangedir = .tox\ncommands = pytest --doctest-modules {env_site_packages_dir}/boltons {tox_root}/tests {posargs}\n';
    assert.deepEqual(argvs(await commandsOf({ 'tox.ini': boltons }, ['boltons/iterutils.py', 'tests/test_iterutils.py'])), [
      'pytest --doctest-modules boltons ./tests',
    ]);
    const nox =
      'import nox\n\n@nox.session\ndef lint(session):\n    session.run("ruff", "check")\n\n@nox.session(python=["3.12"])\ndef tests(session):\n    session.install(".")\n    session.run("pytest", "-x", *session.posargs)\n';
    assert.deepEqual(argvs(await commandsOf({ 'noxfile.py': nox }, ['tests/test_a.py'])), ['pytest -x']);
    const just = 'python := "python3"\n\nlint:\n    ruff check .\n\ntest *args:\n    {{python}} -m pytest {{args}}\n';
    const fromJust = await commandsOf({ justfile: just }, ['tests/test_a.py']);
    assert.equal(fromJust[0]!.source, 'justfile recipe test: {{python}} -m pytest {{args}}');
    assert.deepEqual(argvs(await commandsOf({ 'setup.cfg': '[tool:pytest]\naddopts = -q\n' }, ['test_a.py'])), ['python3 -m pytest']);
    assert.deepEqual(argvs(await commandsOf({ 'go.mod': 'module x\n' }, ['a.go', 'a_test.go'])), ['go test ./...']);
    assert.deepEqual(argvs(await commandsOf({ 'Cargo.toml': '[package]\nname = "x"\n' }, ['src/lib.rs'])), ['cargo test']);
  });

  it('a suite is refused only when none of its commands can run here', async () => {
    const files: Record<string, string> = { 'tox.ini': COLOURS_TOX, Makefile: COLOURS_MAKEFILE, 'go.mod': 'module x\n', 'x_test.go': 'package x\n' };
    for (const file of COLOURS_TESTS) files[file] = '';
    const { root: dir, base } = await committedRepository(files);
    const without = (missing: string[]) => (program: string) => (missing.includes(program) ? null : `/usr/bin/${program}`);
    await checkToolchains(dir, base, without(['make']));
    await assert.rejects(checkToolchains(dir, base, without(['python3'])), (error: Error) => {
      assert.match(error.message, /`python3 -m unittest discover -p \*_test.py` \(tox.ini .*\) needs `python3`/);
      assert.match(error.message, /`make test` .* needs `python3`/, 'make test runs python3 too');
      assert.doesNotMatch(error.message, /go test/);
      return true;
    });
    await assert.rejects(checkToolchains(dir, base, without(['go'])), /`go test \.\/\.\.\.` \(go.mod: Go test files \(\*_test.go\)\) needs `go`/);
  });
});

describe('shell words of a declared command', () => {
  it('splits quotes and escapes as sh does, and leaves a line that needs a shell unsplit', () => {
    assert.deepEqual(shellWords(`python -m unittest discover -p '*_test.py' -s "my tests"`), [
      'python',
      '-m',
      'unittest',
      'discover',
      '-p',
      '*_test.py',
      '-s',
      'my tests',
    ]);
    assert.deepEqual(shellWords('pytest a\\ b ""'), ['pytest', 'a b', '']);
    for (const line of ['pytest | tee log', 'pytest > out', 'pytest $(ls)', 'echo `id`', 'A=1 pytest "$X"', "pytest 'open"])
      assert.equal(shellWords(line), null, line);
    assert.deepEqual(commandChain('pnpm lint && pnpm vitest run; echo done'), [
      ['pnpm', 'lint'],
      ['pnpm', 'vitest', 'run'],
      ['echo', 'done'],
    ]);
  });
});
