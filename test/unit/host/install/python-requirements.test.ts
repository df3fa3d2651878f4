/**
 * What a Python project declares for its install and its tests (src/host/install/python-requirements.ts),
 * read from fixtures in the shapes real projects have: colorama's requirements-dev.txt (release tools and
 * `-e .`, nothing the tests use: left out), a src layout, test extras naming the project itself, PEP 735
 * groups, tox's and nox's test environments, a test requirements file that includes requirements.txt.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pythonRequirements } from '../../../../src/host/install/python-requirements.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

async function requirementsOf(files: Record<string, string>) {
  const root = await tempDir('sopworks-pyreq-');
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(path.join(root, file), content);
  }
  const found = await pythonRequirements(root, async (file) => files[file] ?? null);
  return { ...found, named: found.named.map((n) => `${n.requirement} (${n.from})`) };
}

describe("a Python project's requirements for its tests", () => {
  after(removeTempDirs);

  it("leaves out a development file that names no test tool (colorama's: twine, build, -e .)", async () => {
    const found = await requirementsOf({ 'requirements.txt': '# none\n', 'requirements-dev.txt': 'twine>=3.1.1\nbuild\n-e .\n', 'colorama/__init__.py': '' });
    assert.deepEqual([found.files, found.named, found.selfNaming, found.roots], [[], [], [], []]);
  });

  it('takes a development file that names pytest, the project itself in it never built', async () => {
    const found = await requirementsOf({
      'requirements-dev.txt': '-e .[speedups]\npytest>=7\n',
      'pyproject.toml': '[project]\nname = "x"\n[project.optional-dependencies]\nspeedups = ["fastx"]\n',
    });
    assert.deepEqual(found.files, []);
    assert.deepEqual(found.selfNaming, ['requirements-dev.txt']);
    assert.deepEqual(found.named, ['fastx (pyproject.toml)', 'pytest>=7 (requirements-dev.txt)']);
  });

  it('takes the test extra over dev, and an extra naming the project takes its extras', async () => {
    const found = await requirementsOf({
      'pyproject.toml':
        '[project]\nname = "My_Pkg"\ndependencies = ["a"]\n[project.optional-dependencies]\ntest = ["my-pkg[cli]", "pytest"]\ndev = ["black"]\ncli = ["click"]\n',
    });
    assert.deepEqual(found.named, ['a (pyproject.toml)', 'click (pyproject.toml)', 'pytest (pyproject.toml)']);
  });

  it("reads PEP 735 groups with their includes, uv's dev-dependencies, and puts a src layout's folder on the path", async () => {
    const found = await requirementsOf({
      'pyproject.toml':
        '[project]\nname = "p"\n[dependency-groups]\nlint = ["ruff"]\ntest = ["pytest", {include-group = "lint"}]\n[tool.uv]\ndev-dependencies = ["hypothesis"]\n',
      'src/p/__init__.py': '',
    });
    assert.deepEqual(found.named, ['pytest (pyproject.toml)', 'ruff (pyproject.toml)', 'hypothesis (pyproject.toml)']);
    assert.deepEqual(found.roots, ['src']);
    assert.ok(found.notes.includes('the dependency groups of pyproject.toml installed too: test'));
  });

  it("installs what tox's and nox's test environments install, leaving out their lint and docs ones and what they substitute", async () => {
    const tox = [
      '[tox]',
      'envlist = py3, lint',
      '[testenv]',
      'extras = test',
      'deps =',
      '    mock>=1.0',
      '    -r{toxinidir}/tests/requirements.txt',
      '    {[base]deps}',
      'commands = python -m pytest {posargs}',
      '[testenv:lint]',
      'deps = ruff',
      '',
    ].join('\n');
    const found = await requirementsOf({
      'tox.ini': tox,
      'tests/requirements.txt': 'pytest\n',
      'pyproject.toml': '[project]\nname = "t"\n[project.optional-dependencies]\ntest = ["freezegun"]\n',
    });
    assert.deepEqual(found.named, ['freezegun (pyproject.toml)', 'mock>=1.0 (tox.ini)']);
    assert.deepEqual(found.files, ['tests/requirements.txt']);
    const nox = [
      'import nox',
      '@nox.session',
      'def tests(session):',
      '    session.install("-e", ".[speed]", "hypothesis")',
      '    session.run("pytest")',
      '@nox.session',
      'def lint(session):',
      '    session.install("ruff")',
      '',
    ].join('\n');
    const fromNox = await requirementsOf({
      'noxfile.py': nox,
      'pyproject.toml': '[project]\nname = "n"\n[project.optional-dependencies]\nspeed = ["fastx"]\n',
    });
    assert.deepEqual(fromNox.named, ['fastx (pyproject.toml)', 'hypothesis (noxfile.py)']);
  });

  it('passes a test requirements file to pip as it is, and requirements.txt beside it', async () => {
    const found = await requirementsOf({ 'requirements.txt': 'a\n', 'requirements/test.txt': '-r ../requirements.txt\npytest\n' });
    assert.deepEqual(found.files, ['requirements.txt', 'requirements/test.txt']);
    assert.deepEqual(found.named, []);
  });
});
