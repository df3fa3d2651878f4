/**
 * A dependency install outside bubblewrap, and what the project's tests find afterwards: there the
 * install runs in a scratch copy of the work tree and only regular files come back, so the venv's
 * interpreter links and the `#!` lines of its console scripts are put right by sopworks on the host
 * (host/install/venv-relink.ts). Asserted by running the project's own commands after the install, as a
 * test round would, under the same mode.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkInstall, type DependencyRegistries, runInstall } from '../../src/host/install/index.ts';
import { DEFAULT_SANDBOX_SETTINGS, runSandboxed, type SandboxSettings } from '../../src/host/sandbox/index.ts';
import { type PythonIndex, startPythonIndex } from '../helpers/python-index.ts';
import { NETWORK_NAMESPACE, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const FALLBACK: SandboxSettings = { ...DEFAULT_SANDBOX_SETTINGS, mode: 'fallback', allowUnsandboxed: true };

async function install(projectDir: string, registries: DependencyRegistries) {
  const check = await checkInstall({ projectDir, registries, scripts: false });
  assert.deepEqual(check.refusals, []);
  return runInstall({ ...check, plan: check.plan! }, { projectDir, registries, scripts: false, network: true, sandbox: FALLBACK, wallSeconds: 120 });
}

const runInProject = (projectDir: string, argv: string[]) =>
  runSandboxed({ argv, projectDir, limits: { ...DEFAULT_SANDBOX_SETTINGS.limits, wallSeconds: 60 }, setting: 'fallback', allowUnsandboxed: true });

describe('a dependency install outside bubblewrap (SOPWORKS_SANDBOX=fallback)', function () {
  this.timeout(180_000);
  let wheels: PythonIndex;

  before(async function () {
    requireSystem(this, PYTHON, NETWORK_NAMESPACE);
    wheels = await startPythonIndex();
    await wheels.addWheelFiles('tinyslug', '1.0.0', {
      'tinyslug.py': 'import sys\ndef slug(text):\n    return "-".join(text.lower().split())\ndef main():\n    print(slug(" ".join(sys.argv[1:])))\n',
      'tinyslug-1.0.0.dist-info/entry_points.txt': '[console_scripts]\nslugit = tinyslug:main\n',
    });
  });

  after(async () => {
    await wheels?.stop();
    await removeTempDirs();
  });

  it("a Python project's tests import its dependency and run its console script from the venv the install made", async () => {
    const project = await tempDir();
    await fs.writeFile(path.join(project, 'requirements.txt'), 'tinyslug>=1.0\n');
    const run = await install(project, { npm: null, pipIndex: null, pipFindLinks: wheels.url });
    assert.equal(run.outcome.mode, 'unsandboxed');
    assert.equal(run.outcome.exitCode, 0, run.outcome.output);
    assert.deepEqual(run.unmet, []);

    const imported = await runInProject(project, ['python3', '-c', 'import sys, tinyslug; print(tinyslug.slug("A b"), sys.prefix != sys.base_prefix)']);
    assert.equal(imported.exitCode, 0, imported.output);
    assert.match(imported.output, /^a-b True$/m, "the project's python3 is the venv's, with the dependency");
    const script = await runInProject(project, ['.venv/bin/slugit', 'Hello', 'World']);
    assert.equal(script.exitCode, 0, script.output);
    assert.match(script.output, /^hello-world$/m, 'the console script starts the venv the install made');
    const python = path.join(project, '.venv', 'bin', 'python');
    assert.ok((await fs.lstat(python)).isSymbolicLink(), 'the interpreter is a link, as venv makes it');
    assert.ok(!(await fs.realpath(python)).startsWith(await fs.realpath(project)), "to this machine's python, outside the project");
  });
});
