/**
 * The QA of a change is shown the repository's existing tests nearest to the files the change touches
 * (issue 37), so its tests follow the repository's conventions. Chosen without a model, the same way
 * every time, on fixtures in the shapes of real repositories: a Python package with `*_test.py` beside a
 * helper (colorama), a workspaces monorepo with `__tests__/`, snapshots and test-utils (changesets), Go
 * tests beside their package (go-humanize), tests in `test/` beside a `_fixture.js` (chalk), and a
 * repository with tests in two languages. The step reads them at the base, whole within the budget.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isTestCase, moduleStem, nearestTests } from '../../../../src/capabilities/change/nearest-tests.ts';
import { existingTests } from '../../../../src/capabilities/change/nearest-tests-step.ts';
import { committedRepository } from '../../../helpers/committed-repository.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

/** A repository as a map of path → text: what `nearestTests` reads. */
const choose = (repo: Record<string, string>, changed: string[], maxFiles = 2) =>
  nearestTests({ files: Object.keys(repo), changed, read: async (file) => repo[file] ?? null, maxFiles });

const colorama: Record<string, string> = {
  'setup.py': 'from setuptools import setup\n',
  'colorama/__init__.py': 'from .initialise import init\n',
  'colorama/ansi.py': 'CSI = "\\033["\n',
  'colorama/ansitowin32.py': 'class AnsiToWin32: pass\n',
  'colorama/winterm.py': 'class WinTerm: pass\n',
  'colorama/tests/__init__.py': '',
  'colorama/tests/utils.py': 'def osname(name): pass\n',
  'colorama/tests/ansi_test.py': 'from unittest import TestCase\n\nfrom ..ansi import Fore\nfrom ..ansitowin32 import AnsiToWin32\n',
  'colorama/tests/ansitowin32_test.py':
    'from unittest import TestCase, main\n\nfrom ..ansitowin32 import AnsiToWin32, StreamWrapper\nfrom .utils import osname\n',
  'colorama/tests/winterm_test.py': 'from unittest import TestCase\n\nfrom ..winterm import WinTerm\n',
};

const changesets: Record<string, string> = {
  'package.json': '{ "private": true, "workspaces": ["packages/*"] }\n',
  'packages/cli/package.json': '{ "name": "@changesets/cli" }\n',
  'packages/cli/src/index.ts': 'export {}\n',
  'packages/cli/src/commands/add/index.ts': 'export default async function add() {}\n',
  'packages/cli/src/commands/add/__tests__/add.test.ts': 'import addChangeset from "..";\nimport { testdir } from "@changesets/test-utils";\n',
  'packages/cli/src/commands/add/__tests__/__snapshots__/add.test.ts.snap': '// Jest Snapshot v1\n',
  'packages/cli/src/commands/__tests__/e2e-utils.ts': 'export function e2e() {}\n',
  'packages/cli/src/cli.test.ts': 'import add from "./commands/add";\n',
  'packages/cli/src/utils.test.ts': 'import { x } from "./utils";\n',
  'packages/git/package.json': '{ "name": "@changesets/git" }\n',
  'packages/git/src/index.ts': 'export function add() {}\n',
  'packages/git/src/add.test.ts': 'import { add } from "./index";\n',
  'packages/test-utils/package.json': '{ "name": "@changesets/test-utils" }\n',
  'packages/test-utils/src/index.ts': 'export function testdir() {}\n',
};

describe("the existing tests nearest to a change's files", () => {
  it('prefers the test named after the changed module, then one that imports it, and names the helpers it imports (colorama)', async () => {
    const chosen = await choose(colorama, ['colorama/ansitowin32.py', 'README.md']);
    assert.deepEqual(chosen, [
      { path: 'colorama/tests/ansitowin32_test.py', why: 'named after colorama/ansitowin32.py', helpers: ['colorama/tests/utils.py'] },
      { path: 'colorama/tests/ansi_test.py', why: 'imports colorama/ansitowin32.py', helpers: [] },
    ]);
  });

  it("stays in the changed file's package of a monorepo, and leaves snapshots and test utilities out (changesets)", async () => {
    const chosen = await choose(changesets, ['packages/cli/src/commands/add/index.ts']);
    assert.deepEqual(
      chosen.map((t) => [t.path, t.why]),
      [
        ['packages/cli/src/commands/add/__tests__/add.test.ts', 'named after packages/cli/src/commands/add/index.ts'],
        ['packages/cli/src/cli.test.ts', 'imports packages/cli/src/commands/add/index.ts'],
      ],
    );
    // packages/git's add.test.ts is named `add` too, but tests another package.
    const git = await choose(changesets, ['packages/git/src/index.ts'], 1);
    assert.deepEqual(
      git.map((t) => t.path),
      ['packages/git/src/add.test.ts'],
    );
  });

  it("takes a Go test of the changed file's own package: its name first, then its folder (go-humanize)", async () => {
    const repo = {
      'go.mod': 'module github.com/dustin/go-humanize\n',
      'bytes.go': 'package humanize\n',
      'comma.go': 'package humanize\n',
      'bytes_test.go': 'package humanize\n',
      'comma_test.go': 'package humanize\n',
      'english/words.go': 'package english\n',
      'english/words_test.go': 'package english\n',
      'english/plural_test.go': 'package english\n',
    };
    assert.deepEqual(
      (await choose(repo, ['english/words.go'])).map((t) => [t.path, t.why]),
      [
        ['english/words_test.go', 'named after english/words.go'],
        ['english/plural_test.go', 'in the package of english/words.go'],
      ],
    );
    assert.deepEqual(
      (await choose(repo, ['comma.go'])).map((t) => t.path),
      ['comma_test.go', 'bytes_test.go'],
    );
  });

  it('takes, for a new file of a Go package, the tests named most like it (pflag: uint_slice_test.go for uint8_slice.go)', async () => {
    const repo = {
      'go.mod': 'module github.com/spf13/pflag\n',
      'bool_func_test.go': 'package pflag\n',
      'bool_slice_test.go': 'package pflag\n',
      'int32_slice_test.go': 'package pflag\n',
      'uint_slice_test.go': 'package pflag\n',
      'uint_slice.go': 'package pflag\n',
      'uint8.go': 'package pflag\n',
    };
    assert.deepEqual(
      (await choose(repo, ['uint8_slice.go'])).map((t) => [t.path, t.why]),
      [
        ['uint_slice_test.go', 'in the package of uint8_slice.go, named like it'],
        ['bool_slice_test.go', 'in the package of uint8_slice.go, named like it'],
      ],
    );
  });

  it("shows a fixture file as the helper of the test that imports it, never as a test (chalk's test/_fixture.js)", async () => {
    const repo = {
      'package.json': '{ "name": "chalk", "scripts": { "test": "ava" } }\n',
      'source/index.js': 'export default chalk;\n',
      'test/_fixture.js': "import chalk from '../source/index.js';\n",
      'test/chalk.js': "import test from 'ava';\nimport chalk, {Chalk} from '../source/index.js';\n",
      'test/level.js':
        "import test from 'ava';\nimport {execaNode} from 'execa';\nimport chalk from '../source/index.js';\nconst fixture = './_fixture.js';\nimport './_fixture.js';\n",
      'test/visible.js': "import test from 'ava';\nimport chalk from '../source/index.js';\n",
    };
    const chosen = await choose(repo, ['source/index.js'], 4);
    assert.deepEqual(
      chosen.map((t) => t.path),
      ['test/chalk.js', 'test/level.js', 'test/visible.js'],
    );
    assert.deepEqual(chosen[1]!.helpers, ['test/_fixture.js']);
    assert.equal(chosen[0]!.why, 'imports source/index.js');
  });

  it("takes tests in the change's language, and any test of the repository for a change to its documents only", async () => {
    const repo = {
      'package.json': '{}\n',
      'index.js': 'module.exports = slugify;\n',
      'test/index.test.js': "const slugify = require('..');\n",
      'python/slugify.py': 'def slugify(text): pass\n',
      'python/tests/test_slugify.py': 'from python.slugify import slugify\n',
      'python/tests/conftest.py': 'import pytest\n',
    };
    assert.deepEqual(await choose(repo, ['python/slugify.py']), [
      { path: 'python/tests/test_slugify.py', why: 'named after python/slugify.py', helpers: ['python/tests/conftest.py'] },
    ]);
    assert.deepEqual(
      (await choose(repo, ['index.js'])).map((t) => [t.path, t.why]),
      [['test/index.test.js', 'imports index.js']],
    );
    assert.deepEqual(
      (await choose(repo, ['README.md'])).map((t) => t.path),
      ['python/tests/test_slugify.py', 'test/index.test.js'],
    );
  });

  it("takes a test named after what the change's tasks mention, where no test names or imports the file (express: test/res.redirect.js for lib/response.js)", async () => {
    const express: Record<string, string> = {
      'package.json': '{ "name": "express" }\n',
      'index.js': "module.exports = require('./lib/express');\n",
      'lib/express.js': "exports.response = require('./response');\n",
      'lib/response.js': 'res.redirect = function redirect(url) {};\n',
      'test/support/utils.js': 'exports.shouldNotHaveBody = function () {};\n',
      'test/res.append.js': "var express = require('..');\n",
      'test/res.redirect.js': "var express = require('..');\nvar utils = require('./support/utils');\n",
      'test/res.send.js': "var express = require('..');\n",
      'test/app.router.js': "var express = require('../');\n",
    };
    const chosen = await nearestTests({
      files: Object.keys(express),
      changed: ['lib/response.js', 'History.md'],
      read: async (file) => express[file] ?? null,
      maxFiles: 1,
      about: ['In', 'res.redirect', 'check', 'status', 'RangeError'],
    });
    assert.deepEqual(chosen, [
      { path: 'test/res.redirect.js', why: 'named after res.redirect, which the change is about', helpers: ['test/support/utils.js'] },
    ]);
    // Without the names, the first of the tests whose names begin as the file's does (res.*.js for response.js).
    const plain = await nearestTests({ files: Object.keys(express), changed: ['lib/response.js'], read: async (file) => express[file] ?? null, maxFiles: 1 });
    assert.equal(plain[0]!.path, 'test/res.append.js');
  });

  it('chooses the same whatever order the files are listed in', async () => {
    const entries = Object.entries(changesets);
    const reversed = Object.fromEntries([...entries].reverse());
    const changed = ['packages/cli/src/commands/add/index.ts', 'packages/git/src/index.ts'];
    assert.deepEqual(await choose(reversed, changed, 3), await choose(changesets, changed, 3));
  });

  it('tells a test from a helper, a fixture or a snapshot, and a module from its test by name', () => {
    for (const test of ['test/utils.test.ts', 'test/index.js', 'tests/test_number.py', 'comma_test.go', '__tests__/PropTypesDevelopmentReact15.js', 'test.py'])
      assert.ok(isTestCase(test), test);
    for (const other of [
      'test/_fixture.js',
      'tests/utils.py',
      'tests/conftest.py',
      'test/fixtures/nested.ts',
      'src/test-utils.ts',
      'index.test-d.ts',
      'test/env.sh',
    ])
      assert.ok(!isTestCase(other), other);
    assert.equal(moduleStem('colorama/tests/ansitowin32_test.py'), moduleStem('colorama/ansitowin32.py'));
    assert.equal(moduleStem('packages/apply-release-plan/src/index.test.ts'), 'applyreleaseplan');
    assert.equal(moduleStem('src/FooTest.java'), 'foo');
    assert.equal(moduleStem('src/split.py'), 'split');
    assert.equal(moduleStem('test/index.test.js'), '');
  });
});

describe('the nearestTests step', () => {
  after(removeTempDirs);

  it('reads each test at the base, whole within its budget, a longer one in part saying what is not shown', async () => {
    const repo = await tempDir('sopworks-nearest-tests-');
    const write = async (file: string, text: string) => {
      await fs.mkdir(path.dirname(path.join(repo, file)), { recursive: true });
      await fs.writeFile(path.join(repo, file), text);
    };
    const long = `import test from 'node:test';\nimport { parse } from '../src/parse.js';\n${Array.from({ length: 200 }, (_, i) => `test('case ${i}', () => parse('${i}'));`).join('\n')}\n`;
    await write('package.json', '{ "type": "module" }\n');
    await write('src/parse.js', 'export function parse(text) { return text; }\n');
    await write('test/parse.test.js', long);
    await write('test/other.test.js', "import test from 'node:test';\nimport { parse } from '../src/parse.js';\ntest('other', () => parse(''));\n");
    const run = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd: repo, encoding: 'utf8' });
    run('init', '--quiet', '--initial-branch=main');
    run('add', '.');
    run('commit', '--quiet', '-m', 'base');
    const base = run('rev-parse', 'HEAD').trim();
    // The work tree moved on since (an edit of the change): the base's test is what is shown.
    await write('test/parse.test.js', "test('rewritten', () => {});\n");

    const roomy = await existingTests(repo, base, ['src/parse.js'], { maxFiles: 2, maxChars: 50_000, totalChars: 100_000 });
    assert.deepEqual(
      roomy.files.map((f) => [f.path, f.why, f.content]),
      [
        ['test/parse.test.js', 'named after src/parse.js', long],
        ['test/other.test.js', 'imports src/parse.js', await fs.readFile(path.join(repo, 'test/other.test.js'), 'utf8')],
      ],
    );

    const tight = await existingTests(repo, base, ['src/parse.js'], { maxFiles: 2, maxChars: 1200, totalChars: 1500 });
    assert.equal(tight.files.length, 1, 'the second test had too little room left to show');
    const shown = tight.files[0]!.content;
    assert.ok(shown.length <= 1200 + 120, `${shown.length} characters`);
    assert.ok(shown.startsWith("import test from 'node:test';\nimport { parse } from '../src/parse.js';\ntest('case 0'"));
    const [, from, to] = /not shown: lines (\d+)–(\d+) of \2 — a file is shown up to 1200 characters\)\n$/.exec(shown) ?? [];
    assert.equal(Number(to), long.split('\n').length - 1);
    assert.equal(shown.split('\n').length - 1, Number(from), 'every line before the note is whole');
  });

  it("shows the small helpers the tests import whole, once each (tomli's tests/__init__.py), and only names a large one", async () => {
    const init = '__all__ = ("tomllib",)\n\n# By changing this one line, we can run the tests against\n# a different module name.\nimport tomli as tomllib\n';
    const { root: repo, base } = await committedRepository({
      'pyproject.toml': '[project]\nname = "tomli"\n',
      'src/tomli/_parser.py': 'def loads(s):\n    return {}\n',
      'tests/__init__.py': init,
      'tests/conftest.py': `import pytest\n${'# a long fixture module\n'.repeat(200)}`,
      'tests/test_parser.py': 'import unittest\n\nfrom . import tomllib\n\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        tomllib.loads("")\n',
      'tests/test_misc.py': 'import unittest\n\nfrom . import tomllib\n\n\nclass M(unittest.TestCase):\n    pass\n',
    });
    const tests = await existingTests(repo, base, ['src/tomli/_parser.py'], { maxFiles: 2, maxChars: 4000, totalChars: 6000 });
    assert.equal(tests.files.length, 2);
    for (const file of tests.files) assert.deepEqual(file.helpers, ['tests/__init__.py', 'tests/conftest.py'], file.path);
    assert.deepEqual(
      tests.helpers,
      [{ path: 'tests/__init__.py', content: init, whole: true }],
      'shown once; the 5 KB conftest.py, which defines nothing, only named',
    );
  });

  it("shows a large helper by what it defines, bodies left out (cachetools' 11,811-character tests/__init__.py, trial cachetools50b)", async () => {
    const body = '        cache = self.Cache(maxsize=2)\n        cache[1] = 1\n        self.assertEqual(1, len(cache))\n'.repeat(12);
    const tests = Array.from({ length: 12 }, (_, i) => `    def test_case_${i}(self):\n${body}`).join('\n');
    const init = `class CacheTestMixin:\n    Cache = None\n\n${tests}\n\nclass CountedLock:\n    def __init__(self):\n        self.count = 0\n\n    def __enter__(self):\n        self.count += 1\n\n    def __exit__(self, *exc):\n        pass\n`;
    assert.ok(init.length > 3000, `${init.length}`);
    const { root: repo, base } = await committedRepository({
      'pyproject.toml': '[project]\nname = "cachetools"\n',
      'src/cachetools/__init__.py': 'class Cache:\n    pass\n',
      'tests/__init__.py': init,
      'tests/test_cache.py':
        'import unittest\n\nimport cachetools\n\nfrom . import CacheTestMixin\n\n\nclass CacheTest(unittest.TestCase, CacheTestMixin):\n    Cache = cachetools.Cache\n',
    });
    const found = await existingTests(repo, base, ['src/cachetools/__init__.py'], { maxFiles: 2, maxChars: 4000, totalChars: 6000 });
    assert.deepEqual(found.files[0]?.helpers, ['tests/__init__.py']);
    const [helper] = found.helpers ?? [];
    assert.equal(helper?.whole, false);
    assert.match(helper!.content, /^class CacheTestMixin:\n {4}Cache = None\n {4}def test_case_0\(self\): \.\.\.$/m);
    assert.match(helper!.content, /^class CountedLock:$/m);
    assert.match(helper!.content, /def __enter__\(self\): \.\.\./);
    assert.doesNotMatch(helper!.content, /assertEqual/, 'no body');
  });
});
