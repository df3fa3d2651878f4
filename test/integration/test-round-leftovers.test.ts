/**
 * A test round leaves the work tree as it found it: what the runner wrote outside the committed files —
 * Python's `__pycache__/` (in a folder the run's commits added too, which git's index does not know yet),
 * a cache, a coverage folder, a stray file — is removed after it, while what was there before the round
 * (installed dependencies, the run's record, a folder the round wrote into) stays whole.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { runTestRound } from '../../src/capabilities/test-round/index.ts';
import { DEFAULT_SANDBOX_SETTINGS } from '../../src/host/sandbox/index.ts';
import { BUBBLEWRAP, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd, encoding: 'utf8' });

/** Every path of the work tree but .git, files and folders, sorted. */
async function allPaths(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)) + (e.isDirectory() ? '/' : ''))
    .filter((p) => p !== '.git' && !p.startsWith('.git/'))
    .sort();
}

/** A repository whose last commit (like a run's, made by fast-import) the index does not hold yet. */
async function project(files: Record<string, string>, added: Record<string, string>, loose: Record<string, string>): Promise<string> {
  const root = await tempDir('sopworks-leftovers-');
  const write = async (set: Record<string, string>) => {
    for (const [file, content] of Object.entries(set)) {
      await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await fs.writeFile(path.join(root, file), content);
    }
  };
  await write(files);
  git(root, 'init', '--quiet', '--initial-branch=main');
  await fs.writeFile(path.join(root, '.gitignore'), 'node_modules/\n');
  git(root, 'add', '.');
  git(root, 'commit', '--quiet', '-m', 'base');
  await write(added);
  git(root, 'add', '.');
  git(root, 'commit', '--quiet', '-m', "QA's tests");
  git(root, 'read-tree', 'HEAD~1');
  await write(loose);
  return root;
}

const round = (projectDir: string, testCommand: string[]) =>
  runTestRound({ round: 1, testCommand, projectDir, timeoutMs: 60_000, sandbox: DEFAULT_SANDBOX_SETTINGS, progress: () => {}, removeLeftovers: true });

describe('a test round leaves no stray files in the work tree', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it("removes what a Node runner wrote, keeps what was there before and the committed files' changes", async function () {
    // The runner writes symbolic links, which Node's permission model (the sandbox without bubblewrap) refuses.
    requireSystem(this, BUBBLEWRAP);
    const writer = [
      "const fs = require('node:fs');",
      "fs.mkdirSync('coverage/lcov', { recursive: true }); fs.writeFileSync('coverage/lcov/info', 'x');",
      "fs.writeFileSync('out.log', 'ran'); fs.mkdirSync('src/.cache'); fs.writeFileSync('src/.cache/a', 'x');",
      "fs.writeFileSync('node_modules/.cache-file', 'x'); fs.writeFileSync('vendor/more.js', 'x');",
      "fs.mkdirSync('test/tmp'); fs.symlinkSync('/etc/hostname', 'test/tmp/link'); fs.symlinkSync('/etc', 'etc-link');",
    ].join('\n');
    const root = await project(
      { 'src/app.js': 'module.exports = 1;\n' },
      { 'test/app.test.js': writer },
      { 'node_modules/dep/index.js': 'module.exports = 2;\n', 'vendor/kept.js': 'x\n', '.sopworks/run.json': '{}\n' },
    );
    const before = await allPaths(root);
    const result = await round(root, ['node', 'test/app.test.js']);
    assert.equal(result.exitCode, 0, result.output);
    const after = await allPaths(root);
    const added = after.filter((p) => !before.includes(p));
    // Inside folders that were there before, what the runner wrote stays (they are not the committed tree).
    assert.deepEqual(added, ['node_modules/.cache-file', 'vendor/more.js']);
    assert.deepEqual(
      before.filter((p) => !after.includes(p)),
      [],
      'nothing that was there before is gone',
    );
    await fs.stat('/etc/hostname');
  });

  it("removes Python's __pycache__ and .pytest_cache-like folders, also in a folder the run's commits added", async function () {
    // Python's tests run only in bubblewrap: without it the round refuses them.
    requireSystem(this, PYTHON, BUBBLEWRAP);
    const root = await project(
      { 'pkg/__init__.py': '', 'pkg/core.py': 'def double(n):\n    return 2 * n\n' },
      {
        'tests/__init__.py': '',
        'tests/test_core.py':
          'import os, unittest\nfrom pkg.core import double\nos.makedirs(".pytest_cache/v", exist_ok=True)\n\nclass T(unittest.TestCase):\n    def test_double(self):\n        self.assertEqual(double(2), 4)\n',
      },
      {},
    );
    const before = await allPaths(root);
    const result = await round(root, ['python3', '-m', 'unittest', 'discover', '-s', 'tests', '-t', '.']);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(result.counts?.passed, 1, result.output);
    assert.deepEqual(await allPaths(root), before);
  });
});
