/**
 * Python repositories as people keep them install what their tests need, against a real --find-links
 * page of wheels on this machine, in the sandbox: a src-layout package with its test runner in a
 * `[project.optional-dependencies] test` extra and a requirements-dev.txt that says `-e .[test]` (what
 * `pip install -e .[test]` gives, without building the project); uv's `[dependency-groups]` with a
 * uv.lock pinning them; a requirements-test.txt beside requirements.txt. Each is checked by what the
 * environment can import afterwards, as the tests would.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkInstall, type DependencyRegistries, runInstall } from '../../src/host/install/index.ts';
import { DEFAULT_SANDBOX_SETTINGS, runSandboxed } from '../../src/host/sandbox/index.ts';
import { type PythonIndex, startPythonIndex } from '../helpers/python-index.ts';
import { BUBBLEWRAP, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);

async function project(files: Record<string, string>): Promise<string> {
  const root = await tempDir('sopworks-pylayout-');
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(path.join(root, file), content);
  }
  return root;
}

/** What the environment's Python imports from the project folder's parent (so that only the environment's path finds the project). */
async function imports(root: string, code: string): Promise<string> {
  const { stdout } = await exec(path.join(root, '.venv', 'bin', 'python'), ['-c', code], { cwd: path.dirname(root) });
  return stdout.trim();
}

describe('Python repositories install what their tests need', function () {
  this.timeout(240_000);
  let wheels: PythonIndex;
  let registries: DependencyRegistries;

  before(async function () {
    requireSystem(this, BUBBLEWRAP, PYTHON);
    wheels = await startPythonIndex();
    await wheels.addWheel('tinyslug', '1.0.0', 'def slug(t):\n    return t\n');
    await wheels.addWheel('tinyslug', '1.1.0', 'def slug(t):\n    return t\n');
    await wheels.addWheel('minitest', '2.0.0', 'RUNNER = "minitest"\n');
    await wheels.addWheel('linthelper', '1.0.0', 'X = 1\n');
    registries = { npm: null, pipIndex: null, pipFindLinks: wheels.url };
  });
  after(async () => {
    await wheels?.stop();
    await removeTempDirs();
  });

  async function install(root: string) {
    const check = await checkInstall({ projectDir: root, registries, scripts: false, workspaces: true });
    assert.deepEqual(check.refusals, []);
    const run = await runInstall(
      { ...check, plan: check.plan! },
      { projectDir: root, registries, scripts: false, network: true, sandbox: { ...DEFAULT_SANDBOX_SETTINGS, mode: 'bubblewrap' }, wallSeconds: 120 },
    );
    assert.equal(run.outcome.exitCode, 0, run.outcome.output);
    assert.deepEqual(run.unmet, []);
    return { check, run };
  }

  it('a src layout with a test extra and `-e .[test]`: the extra installed, the package importable, nothing built', async () => {
    const root = await project({
      'pyproject.toml': [
        '[build-system]',
        'requires = ["setuptools>=61"]',
        'build-backend = "setuptools.build_meta"',
        '[project]',
        'name = "colours"',
        'version = "0.1.0"',
        'dependencies = ["tinyslug>=1.0"]',
        '[project.optional-dependencies]',
        'test = ["minitest>=2"]',
        'lint = ["linthelper"]',
        '',
      ].join('\n'),
      'requirements-dev.txt': '-e .[test]\n',
      'src/colours/__init__.py': 'NAME = "colours"\n',
      'tests/test_colours.py': 'import colours\n',
    });
    const { check } = await install(root);
    assert.deepEqual(check.plan!.declared, ['tinyslug>=1.0', 'minitest>=2']);
    assert.ok(check.notes.includes('the test extras of pyproject.toml installed too: test'), check.notes.join('\n'));
    assert.ok(check.notes.some((n) => /^src\/ put on the environment's path/.test(n)));
    assert.equal(await imports(root, 'import colours, tinyslug, minitest; print(colours.NAME, minitest.RUNNER)'), 'colours minitest');
    await assert.rejects(imports(root, 'import linthelper'), /No module named 'linthelper'/, 'an extra not for tests is left out');
    await assert.rejects(fs.stat(path.join(root, 'build')), 'the project was not built');
  });

  it("a src layout whose install fails: the tests' Python imports the project's sources, not an installed copy, whichever Python it is", async () => {
    const root = await project({
      'pyproject.toml': '[project]\nname = "colours"\nversion = "0.1.0"\ndependencies = ["nosuchpackage>=1"]\n',
      'src/colours/__init__.py': 'NAME = "colours from src"\n',
    });
    const check = await checkInstall({ projectDir: root, registries, scripts: false, workspaces: true });
    const run = await runInstall(
      { ...check, plan: check.plan! },
      { projectDir: root, registries, scripts: false, network: true, sandbox: { ...DEFAULT_SANDBOX_SETTINGS, mode: 'bubblewrap' }, wallSeconds: 120 },
    );
    assert.notEqual(run.outcome.exitCode, 0, 'nosuchpackage is on no index');
    // The machine's own Python (as the tests run when the venv lacks their runner): it reads no .pth of the venv's.
    const system = (await exec('python3', ['-c', 'import sys; print(sys.executable)'], { cwd: path.dirname(root) })).stdout.trim();
    const code = 'import colours, sys; print(colours.NAME, "|", sys.prefix)';
    for (const python of [system, 'python3']) {
      const outcome = await runSandboxed({
        argv: [python, '-c', code],
        projectDir: root,
        limits: { ...DEFAULT_SANDBOX_SETTINGS.limits, wallSeconds: 60 },
        setting: 'bubblewrap',
        allowUnsandboxed: false,
      });
      assert.equal(outcome.exitCode, 0, outcome.output);
      assert.match(outcome.output, /^colours from src \| /m, python);
      // The venv the failed install left holds no package: `python3` is the system's, whose runners
      // (`python3 -m pytest`) the tests may use (trial sqlparse49), not the empty venv's.
      assert.doesNotMatch(outcome.output, /\| \S*\.venv/, python);
      assert.ok(
        (outcome.environment ?? []).includes("PYTHONPATH: the project's source folders (a src layout), as its .venv has them"),
        (outcome.environment ?? []).join('\n'),
      );
    }
  });

  it("uv's dependency groups, pinned by uv.lock", async () => {
    const root = await project({
      'pyproject.toml': '[project]\nname = "sluggy"\nversion = "1.0"\ndependencies = ["tinyslug>=1.0"]\n\n[dependency-groups]\ndev = ["minitest"]\n',
      'uv.lock': 'version = 1\n\n[[package]]\nname = "tinyslug"\nversion = "1.0.0"\n\n[[package]]\nname = "minitest"\nversion = "2.0.0"\n',
      'sluggy.py': 'import tinyslug\n',
    });
    await install(root);
    assert.equal(
      await fs.readFile(path.join(root, 'requirements.lock'), 'utf8'),
      'minitest==2.0.0\ntinyslug==1.0.0\n',
      'uv.lock chose 1.0.0 over the newer 1.1.0',
    );
  });

  it('requirements.txt and requirements-test.txt together', async () => {
    const root = await project({ 'requirements.txt': 'tinyslug\n', 'requirements-test.txt': '-r requirements.txt\nminitest==2.0.0\n', 'app.py': '' });
    const { check } = await install(root);
    assert.match(check.plan!.shown.join(' '), /-r requirements\.txt -r requirements-test\.txt$/);
    assert.equal(await imports(root, 'import tinyslug, minitest; print("ok")'), 'ok');
  });

  it('refuses a test requirement that names another source, naming its file and line', async () => {
    const root = await project({
      'pyproject.toml': '[project]\nname = "x"\nversion = "1"\n[project.optional-dependencies]\ntest = ["minitest @ https://example.invalid/minitest.whl"]\n',
    });
    const check = await checkInstall({ projectDir: root, registries, scripts: false, workspaces: true });
    assert.deepEqual(
      check.refusals.map((r) => `${r.file}:${r.line} ${r.why}`),
      ['pyproject.toml:5 it installs from https://example.invalid/minitest.whl, not from the index (a direct reference)'],
    );
  });
});
