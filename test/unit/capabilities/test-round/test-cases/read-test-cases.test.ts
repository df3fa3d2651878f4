/**
 * Which tests a runner's output names and how each ended, for every runner sopworks supports — node
 * --test (TAP, spec), mocha (spec, TAP), Jest, Vitest, pytest, unittest, go test — read from real runs
 * of one suite (test/fixtures/test-output/*-criteria.txt) and from runners run here; and which
 * criterion each test cites by its name, as a person or a language writes it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseTestOutput } from '../../../../../src/capabilities/test-round/parse-test-output.ts';
import { readTestCases } from '../../../../../src/capabilities/test-round/test-cases/read-test-cases.ts';
import { citedCriteria } from '../../../../../src/documents/index.ts';
import { ROOT } from '../../../../helpers/paths.ts';
import { GO, PYTEST, PYTHON, requireSystem } from '../../../../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../../../../helpers/temp-dir.ts';

const fixture = (name: string) => fs.readFileSync(path.join(ROOT, 'test/fixtures/test-output', name), 'utf8');
const listed = (output: string) => readTestCases(output).map((c) => `${c.outcome} ${c.name}`);

/** The suite every fixture ran (suites as the runner nests them), as that runner names its tests. */
const JS_SUITE = [
  'passed no criterion here',
  'passed AC-1: counts words > counts a single word',
  'failed AC-1: counts words > lowercases words',
  'passed outer > AC-2 prints the top ten',
  'skipped outer > AC-3: malformed input exits 1',
  'passed outer > AC-4 inner > inner ok',
  'failed outer > AC-4 inner > inner bad',
];
const NODE_SUITE = [
  'passed AC-5 second file',
  'passed AC-1: counts words > counts a single word',
  'failed AC-1: counts words > lowercases words',
  'passed AC-2 prints the top ten',
  'skipped AC-3: malformed input exits 1',
  'passed outer > AC-4 inner > inner ok',
  'failed outer > AC-4 inner > inner bad',
  'passed no criterion here',
];
const PYTEST_SUITE = [
  'passed tests/test_cli.py::test_ac1_counts_a_single_word',
  'failed tests/test_cli.py::test_ac1_lowercases_words',
  'skipped tests/test_cli.py::test_AC_3_malformed_input_exits_1',
  'passed tests/test_cli.py::TestAC4Inner::test_inner_ok',
  'failed tests/test_cli.py::TestAC4Inner::test_inner_bad',
  'passed tests/test_cli.py::test_top_ten[a]',
  'passed tests/test_cli.py::test_top_ten[b]',
  'passed tests/test_cli.py::test_no_criterion_here',
];

describe('the tests a runner names, and how each ended', () => {
  for (const form of ['node-tap', 'node-spec'])
    it(`${form}: leaves only (a suite is not a test), nested names joined, skips said`, () => {
      assert.deepEqual(listed(fixture(`${form}-criteria.txt`)), NODE_SUITE);
    });

  it('mocha spec: suites from the indentation, failures by their number, pending as skipped', () => {
    assert.deepEqual(listed(fixture('mocha-spec-criteria.txt')), JS_SUITE);
  });

  it('mocha tap: the full title as mocha joins it (by spaces)', () => {
    assert.deepEqual(
      listed(fixture('mocha-tap-criteria.txt')),
      JS_SUITE.map((line) => line.replaceAll(' > ', ' ')),
    );
  });

  it('jest --verbose: the listing under the file, not the details of its failures', () => {
    assert.deepEqual(listed(fixture('jest-verbose-criteria.txt')), JS_SUITE);
  });

  it("ava 3 and 6: a line a test before the first '─', the file before ' › ', a failure's first words kept", () => {
    const suite = [
      'passed two › AC-4 inner ok',
      'failed two › AC-4 inner bad Error thrown in test',
      'skipped cli › AC-3: malformed input exits 1',
      'skipped cli › AC-5 later',
      'passed cli › no criterion here',
      'passed cli › AC-1: counts words > counts a single word',
      'failed cli › AC-1: counts words > lowercases words',
      'passed cli › AC-2 prints the top ten',
    ].sort();
    for (const name of ['ava3-criteria.txt', 'ava6-criteria.txt']) {
      assert.deepEqual(listed(fixture(name)).sort(), suite, name);
      assert.deepEqual(parseTestOutput(fixture(name)).counts, { passed: 4, failed: 2 }, name);
    }
  });

  it("uvu 0.5 and 0.3: a suite's passing tests as one case named by the suite, each failure its own, counts from Total and Passed", () => {
    assert.deepEqual(listed(fixture('uvu-criteria.txt')), [
      'passed cli.test.mjs > AC-1: counts words',
      'failed cli.test.mjs > AC-1: counts words > lowercases words',
      'passed cli.test.mjs > AC-2 prints the top ten',
      'passed cli.test.mjs',
      'failed cli.test.mjs > AC-3: malformed input exits 1',
      'passed two.test.mjs > AC-4',
    ]);
    const parsed = parseTestOutput(fixture('uvu-criteria.txt'));
    assert.deepEqual(parsed.counts, { passed: 4, failed: 2 });
    assert.equal(parsed.skipped, 1);
    assert.deepEqual(parsed.failures, [
      { name: 'AC-1: counts words > lowercases words', message: 'Expected values to be strictly equal:  (is)' },
      { name: 'AC-3: malformed input exits 1', message: 'exit 0, not 1' },
    ]);
    // kleur's own suite under `uvu -r esm` (0.3.3), with a capable model's tests a suite per criterion.
    const esm = readTestCases(fixture('uvu-esm-criteria.txt'));
    assert.deepEqual(parseTestOutput(fixture('uvu-esm-criteria.txt')).counts, { passed: 56, failed: 0 });
    assert.ok(esm.every((c) => c.outcome === 'passed'));
    assert.deepEqual(
      esm.filter((c) => c.name.startsWith('test/keep.js > ')).map((c) => citedCriteria(c.name)),
      [['KW-1'], ['KW-2'], ['KW-3'], ['KW-4'], ['KW-5'], ['KW-6'], ['KW-7']],
    );
    assert.ok(
      esm.some((c) => c.name === 'test/colors.js'),
      'a file of bare test()s is one case, named by its file',
    );
  });

  it("cargo test: each binary's source before the path in the crate, ignored as skipped, a doc test as named", () => {
    assert.deepEqual(listed(fixture('cargo-criteria.txt')), [
      'passed src/lib.rs > tests::ac1_counts_a_single_word',
      'passed src/lib.rs > tests::ac1_lowercases_words',
      'skipped src/lib.rs > tests::ac3_malformed_input_exits_1',
      'passed src/lib.rs > tests::no_criterion_here',
      'passed tests/cli.rs > ac2_prints_the_top_ten',
      'failed tests/cli.rs > kw1_keeps_working',
      'passed src/lib.rs - count (line 4)',
    ]);
    assert.deepEqual(
      readTestCases(fixture('cargo-criteria.txt')).map((c) => citedCriteria(c.name)),
      [['AC-1'], ['AC-1'], ['AC-3'], [], ['AC-2'], ['KW-1'], []],
    );
    assert.deepEqual(parseTestOutput(fixture('cargo-criteria.txt')).counts, { passed: 5, failed: 1 });
  });

  it("tape: a test's '# name' comment before its assertions, counts aligned ('# pass  3') and no '# fail' when none failed", () => {
    assert.deepEqual(listed(fixture('tape-criteria.txt')), [
      'passed AC-1: counts words > counts a single word',
      'failed AC-1: counts words > lowercases words',
      'passed AC-2 prints the top ten > should be truthy',
      'passed no criterion here > should be truthy',
    ]);
    const failing = parseTestOutput(fixture('tape-criteria.txt'));
    assert.deepEqual(failing.counts, { passed: 3, failed: 1 });
    assert.deepEqual(failing.failures, [{ name: 'lowercases words', message: 'equal: expected a, actual A' }]);
    assert.deepEqual(parseTestOutput(fixture('tape-passing.txt')).counts, { passed: 4, failed: 0 });
  });

  it("jest 19 --verbose (old repositories pin it): ' FAIL  file', its failures' details before the listing, skips only counted", () => {
    assert.deepEqual(
      listed(fixture('jest19-verbose-criteria.txt')),
      JS_SUITE.filter((line) => !line.startsWith('skipped')),
    );
  });

  it("vitest: the verbose reporter's file > suite > test, and the default one's failing file", () => {
    const verbose = listed(fixture('vitest-verbose-criteria.txt'));
    assert.deepEqual(verbose, [
      'passed vt/v.test.mjs > AC-1: counts words > counts a single word',
      'failed vt/v.test.mjs > AC-1: counts words > lowercases words',
      'passed vt/v.test.mjs > outer > AC-4 inner > inner ok',
      'failed vt/v.test.mjs > outer > AC-4 inner > inner bad',
      'passed vt/v.test.mjs > outer > AC-2 prints the top ten',
      'skipped vt/v.test.mjs > outer > AC-3: malformed input exits 1',
      'passed vt/v.test.mjs > no criterion here',
      'passed vt/w.test.mjs > AC-5 second file',
    ]);
    // The default reporter lists a failing file's tests only; a passing file is one line, no test.
    assert.deepEqual(
      listed(fixture('vitest-default-criteria.txt')),
      verbose.filter((line) => !line.includes('w.test.mjs')).map((line) => line.replace('vt/v.test.mjs > ', '')),
    );
  });

  it('pytest -v and -rA: node ids with their verdicts (-rA names no skipped test)', () => {
    assert.deepEqual(listed(fixture('pytest-v-criteria.txt')), PYTEST_SUITE);
    assert.deepEqual(listed(fixture('pytest-rA-criteria.txt')).sort(), PYTEST_SUITE.filter((l) => !l.startsWith('skipped')).sort());
  });

  it('pytest 9 -v with unittest subtests: a failed subtest fails its test, though its own line says PASSED (trial cachetools50)', () => {
    assert.deepEqual(listed(fixture('pytest-v-subtests.txt')), [
      'passed tests/test_sub.py::TestResize::test_ac1_each_size',
      'failed tests/test_sub.py::TestResize::test_ac2_evicts',
      'passed tests/test_sub.py::test_ac3_plain',
    ]);
    // The pytest-subtests plugin's form: the subtest's message and parameters after the id.
    const plugin = 'SUBFAIL tests/t.py::T::test_ac2 [custom message] (i=1) - AssertionError\n== 1 failed, 1 passed in 0.1s ==\n';
    assert.deepEqual(listed(`tests/t.py::T::test_ac2 PASSED [100%]\n${plugin}`), ['failed tests/t.py::T::test_ac2']);
  });

  it("unittest -v: a docstring's first line is the test's title; a failed subtest fails its test", () => {
    assert.deepEqual(listed(fixture('unittest-v-criteria.txt')), [
      'skipped tests.test_u.TestCounts.test_AC_3_malformed',
      'passed tests.test_u.TestCounts.test_ac1_counts_a_single_word',
      'failed tests.test_u.TestCounts.test_ac1_lowercases_words',
      'failed tests.test_u.TestCounts.test_ac4_errors',
      'passed tests.test_u.TestCounts.test_no_criterion: AC-9: a docstring.',
      'failed tests.test_u.TestCounts.test_subtests_ac2',
    ]);
  });

  it("go test -v: a package whose tests did not compile is one failure, named by the package, beside the others' tests", () => {
    assert.deepEqual(listed(fixture('go-v-build-failed.txt')), [
      'passed TestGood',
      'failed TestBad',
      'failed TestTable/one',
      'passed TestTable/two',
      'failed example.com/gofail/broken [build failed]',
    ]);
  });

  it('go test -v: subtests by their path, a parent of subtests not a test of its own', () => {
    assert.deepEqual(listed(fixture('go-v-criteria.txt')), [
      'passed TestAC1CountsASingleWord',
      'failed TestAC1LowercasesWords',
      'skipped TestAC3Malformed',
      'passed TestCLI/AC-4_inner_ok',
      'failed TestCLI/AC-4_inner_bad',
      'passed TestCLI/AC-2/prints_the_top_ten',
      'passed TestNoCriterionHere',
    ]);
  });

  it('pytest -v: a parametrized id with spaces in it, the same from its verdict line and its summary line', () => {
    assert.deepEqual(listed(fixture('pytest-v-long-ids.txt')), [
      `failed tests/test_quote.py::test_quote_false_keeps_quotes_and_escapes_the_others[a&b<c>d'e"f plus a rather long parameter]`,
      'passed tests/test_quote.py::test_quote_false_keeps_quotes_and_escapes_the_others[plain text that is also long enough]',
      'failed tests/test_quote.py::TestSignature::test_has_keyword_only_quote_argument_in_its_signature_as_documented',
      'passed tests/test_quote.py::test_short',
    ]);
  });

  it('forms that print no passing test name none of them (pytest -q, node dots)', () => {
    assert.deepEqual(listed(fixture('pytest-q-passing.txt')), []);
    assert.deepEqual(listed(fixture('node-dot-failing.txt')), []);
  });

  it('a runner whose summary line is not read is counted from its listing, its failures named', () => {
    for (const name of ['mocha-spec-criteria.txt', 'jest-verbose-criteria.txt', 'go-v-criteria.txt']) {
      const parsed = parseTestOutput(fixture(name));
      assert.equal(parsed.counts?.failed, 2, name);
      assert.equal(parsed.failures.length, 2, name);
    }
    assert.deepEqual(parseTestOutput(fixture('vitest-verbose-criteria.txt')).counts, { passed: 5, failed: 2 });
  });
});

describe('which criterion a test cites', () => {
  const cases: [string, string[]][] = [
    ['AC-1: counts words > lowercases words', ['AC-1']],
    ['tests/test_cli.py::test_ac1_lowercases_words', ['AC-1']],
    ['tests/test_cli.py::test_AC_3_malformed', ['AC-3']],
    ['tests/test_cli.py::TestAC4Inner::test_inner_ok', ['AC-4']],
    ['TestAC12MalformedCSV', ['AC-12']],
    ['TestCLI/AC-4_inner_ok', ['AC-4']],
    ['test_x[AC-07]', ['AC-7']],
    ['AC-2 and AC-5 together, AC-2 again', ['AC-2', 'AC-5']],
    ['KW-1: the old flags keep working', ['KW-1']],
    // Words that only hold the letters: none.
    ['test_mac3_address', []],
    ['MAC3 checksum', []],
    ['goes back2front', []],
    ['AC-0 is no id', []],
  ];
  for (const [name, ids] of cases) it(`${JSON.stringify(name)} → ${ids.join(', ') || 'none'}`, () => assert.deepEqual(citedCriteria(name), ids));
});

describe('tests named by runners run here', () => {
  after(removeTempDirs);
  const run = (command: string, args: string[], cwd: string) => {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    delete env.NODE_TEST_CONTEXT;
    const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(result.error, undefined);
    return `${result.stdout}\n${result.stderr}`;
  };
  const JS = `const assert = require('node:assert');
describe('AC-1: counts words', () => {
  it('counts a word', () => assert.equal(1, 1));
  it('AC-2 fails', () => assert.equal(1, 2));
});
`;

  for (const reporter of ['tap', 'spec'])
    it(`node --test --test-reporter=${reporter}`, async () => {
      const dir = await tempDir('sopworks-cases-');
      fs.writeFileSync(path.join(dir, 'a.test.js'), `const { describe, it } = require('node:test');\n${JS}`);
      assert.deepEqual(listed(run(process.execPath, ['--test', `--test-reporter=${reporter}`], dir)), [
        'passed AC-1: counts words > counts a word',
        'failed AC-1: counts words > AC-2 fails',
      ]);
    });

  it('mocha (spec)', async () => {
    const dir = await tempDir('sopworks-cases-');
    fs.writeFileSync(path.join(dir, 'a.test.js'), JS);
    const mocha = path.join(ROOT, 'node_modules/mocha/bin/mocha.js');
    assert.deepEqual(listed(run(process.execPath, [mocha, '--no-config', '--reporter', 'spec', 'a.test.js'], dir)), [
      'passed AC-1: counts words > counts a word',
      'failed AC-1: counts words > AC-2 fails',
    ]);
  });

  it('python3 -m unittest -v', async function () {
    requireSystem(this, PYTHON);
    const dir = await tempDir('sopworks-cases-');
    fs.writeFileSync(
      path.join(dir, 'test_a.py'),
      'import unittest\n\nclass T(unittest.TestCase):\n    def test_ac1_counts(self):\n        pass\n    def test_ac2_fails(self):\n        self.assertEqual(1, 2)\n',
    );
    assert.deepEqual(listed(run('python3', ['-m', 'unittest', '-v'], dir)), ['passed test_a.T.test_ac1_counts', 'failed test_a.T.test_ac2_fails']);
  });

  it('python3 -m pytest -v, with unittest subtests (counted apart by pytest 9)', async function () {
    requireSystem(this, PYTHON, PYTEST);
    const dir = await tempDir('sopworks-cases-');
    fs.writeFileSync(
      path.join(dir, 'test_a.py'),
      'import unittest\n\nclass T(unittest.TestCase):\n    def test_ac1_sizes(self):\n        for i in range(3):\n            with self.subTest(i=i):\n                self.assertGreaterEqual(i, 0)\n\ndef test_ac2_plain():\n    pass\n',
    );
    const output = run('python3', ['-m', 'pytest', '-v', '-p', 'no:cacheprovider'], dir);
    assert.deepEqual(listed(output), ['passed test_a.py::T::test_ac1_sizes', 'passed test_a.py::test_ac2_plain'], output);
    assert.deepEqual(parseTestOutput(output).counts, { passed: 2, failed: 0 }, output);
  });

  it('go test -v', async function () {
    requireSystem(this, GO);
    const dir = await tempDir('sopworks-cases-');
    fs.writeFileSync(path.join(dir, 'go.mod'), 'module example.com/a\n\ngo 1.18\n');
    fs.writeFileSync(
      path.join(dir, 'a_test.go'),
      'package a\n\nimport "testing"\n\nfunc TestAC1Counts(t *testing.T) {}\nfunc TestCLI(t *testing.T) {\n\tt.Run("AC-2 fails", func(t *testing.T) { t.Fatal("no") })\n}\n',
    );
    const env = { GOFLAGS: '-mod=mod', GOCACHE: path.join(dir, '.cache'), GOPATH: path.join(dir, '.gopath') };
    const result = spawnSync('go', ['test', '-v', './...'], { cwd: dir, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
    assert.deepEqual(listed(`${result.stdout}\n${result.stderr}`), ['passed TestAC1Counts', 'failed TestCLI/AC-2_fails']);
  });
});
