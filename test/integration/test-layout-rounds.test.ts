/**
 * Tests where each language's runner finds them, as the prompts tell QA to put them (issue 36;
 * roles/_shared/test-layout.hbs). A Go project's tests beside its code (`checker/parse_test.go`, in
 * package checker, testing an unexported helper too), found by `go test ./...` in the sandbox and read
 * into the round's report by name; its program smoke-run with `go run .`, which the policy lets QA run as
 * it runs `go test` — no wrapper script — and which leaves nothing in the project. A Python project's
 * tests in tests/, found by the unittest command the layout names. A Rust crate's tests in tests/, run by
 * `cargo test` — through rustup's proxy where Rust came from rustup, whose toolchains the sandbox does not
 * otherwise see.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_POLICY, policyPort } from '../../src/capabilities/policy/index.ts';
import { smokeReport } from '../../src/capabilities/project/index.ts';
import { runTestRound } from '../../src/capabilities/test-round/index.ts';
import { DEFAULT_SANDBOX_SETTINGS, runSandboxed } from '../../src/host/sandbox/index.ts';
import { BUBBLEWRAP, CARGO, GO, PYTHON, requireSystem } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const DIGEST = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const SUMCHECK: Record<string, string> = {
  'go.mod': 'module sumcheck\n\ngo 1.19\n',
  'checker/parse.go': [
    'package checker',
    '',
    'import "strings"',
    '',
    '// Entry is one line of a checksum list.',
    'type Entry struct {',
    '\tDigest string',
    '\tName   string',
    '}',
    '',
    '// ParseLine reads "<digest>  <name>"; ok is false for a malformed line.',
    'func ParseLine(line string) (Entry, bool) {',
    '\tdigest, name, found := strings.Cut(strings.TrimRight(line, "\\n"), "  ")',
    '\tif !found || len(digest) != 64 || !isHex(digest) || name == "" {',
    '\t\treturn Entry{}, false',
    '\t}',
    '\treturn Entry{Digest: strings.ToLower(digest), Name: name}, true',
    '}',
    '',
    'func isHex(s string) bool {',
    '\treturn strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""',
    '}',
    '',
  ].join('\n'),
  'checker/parse_test.go': [
    'package checker',
    '',
    'import "testing"',
    '',
    'func TestAC1ParsesAWellFormedLine(t *testing.T) {',
    `\tentry, ok := ParseLine("${DIGEST.toUpperCase()}  empty.txt\\n")`,
    `\tif !ok || entry.Digest != "${DIGEST}" || entry.Name != "empty.txt" {`,
    '\t\tt.Fatalf("got %+v, %v", entry, ok)',
    '\t}',
    '}',
    '',
    '// The same package: the unexported helper is in reach of its tests.',
    'func TestAC2RefusesANonHexDigest(t *testing.T) {',
    '\tif isHex("xyz") {',
    '\t\tt.Fatal("xyz is not hex")',
    '\t}',
    '}',
    '',
  ].join('\n'),
  'main.go': [
    'package main',
    '',
    'import (',
    '\t"bufio"',
    '\t"fmt"',
    '\t"os"',
    '',
    '\t"sumcheck/checker"',
    ')',
    '',
    'func main() {',
    '\tfile, err := os.Open(os.Args[1])',
    '\tif err != nil {',
    '\t\tfmt.Fprintln(os.Stderr, err)',
    '\t\tos.Exit(2)',
    '\t}',
    '\tlines := bufio.NewScanner(file)',
    '\tfor lines.Scan() {',
    '\t\tif entry, ok := checker.ParseLine(lines.Text()); ok {',
    '\t\t\tfmt.Printf("%s: listed\\n", entry.Name)',
    '\t\t}',
    '\t}',
    '}',
    '',
  ].join('\n'),
  'testdata/SHA256SUMS': `${DIGEST}  empty.txt\n`,
};

async function project(files: Record<string, string>): Promise<string> {
  const dir = path.join(await tempDir('sopworks-go-'), 'sumcheck');
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), content);
  }
  return dir;
}

async function tree(dir: string): Promise<string[]> {
  return (await fs.readdir(dir, { recursive: true })).sort();
}

const MDTABLE: Record<string, string> = {
  'mdtable/__init__.py': '# Markdown tables.\n',
  'mdtable/align.py': 'def align_of(spec: str) -> str:\n    return {"l": "left", "r": "right"}.get(spec, "left")\n',
  'tests/test_align.py': [
    'import unittest',
    '',
    'from mdtable.align import align_of',
    '',
    '',
    'class AlignTest(unittest.TestCase):',
    '    def test_ac1_right_alignment(self):',
    '        self.assertEqual(align_of("r"), "right")',
    '',
    '    def test_ac2_left_by_default(self):',
    '        self.assertEqual(align_of("x"), "left")',
    '',
  ].join('\n'),
};

const COLSUM: Record<string, string> = {
  'Cargo.toml': '[package]\nname = "colsum"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
  'src/lib.rs': [
    '/// The sum of the numbers in a comma-separated line; None when one is not a number.',
    'pub fn sum_line(line: &str) -> Option<f64> {',
    "    line.split(',').map(|cell| cell.trim().parse::<f64>().ok()).sum()",
    '}',
    '',
  ].join('\n'),
  'tests/acceptance.rs': [
    'use colsum::sum_line;',
    '',
    '#[test]',
    'fn ac1_sums_the_numbers_of_a_line() {',
    '    assert_eq!(sum_line("1, 2.5,3"), Some(6.5));',
    '}',
    '',
    '#[test]',
    'fn ac2_refuses_a_cell_that_is_not_a_number() {',
    '    assert_eq!(sum_line("1,x"), None);',
    '}',
    '',
  ].join('\n'),
};

describe("tests where the language's runner finds them", function () {
  this.timeout(240_000);
  after(removeTempDirs);

  it('runs the tests beside the code with go test, each read by name, and smoke-runs the program with go run .', async function () {
    requireSystem(this, BUBBLEWRAP, GO);
    const dir = await project(SUMCHECK);
    const before = await tree(dir);
    const policy = policyPort(DEFAULT_POLICY);
    const testCommand = ['go', 'test', './...'];
    assert.equal(policy.commandRefusal('qa', testCommand), null);
    // QA wrote the test file beside the code it tests; the Engineer may not.
    assert.deepEqual(policy.writeRefusals('qa', ['checker/parse_test.go']), []);
    assert.equal(policy.writeRefusals('engineer', ['checker/parse_test.go']).length, 1);

    const round = await runTestRound({ round: 1, testCommand, projectDir: dir, timeoutMs: 120_000, sandbox: DEFAULT_SANDBOX_SETTINGS, progress: () => {} });
    assert.equal(round.passed, true, round.output);
    assert.deepEqual(round.counts, { passed: 2, failed: 0 });
    assert.deepEqual(round.cases.citing.map((c) => [c.name, c.outcome]).sort(), [
      ['TestAC1ParsesAWellFormedLine', 'passed'],
      ['TestAC2RefusesANonHexDigest', 'passed'],
    ]);

    const smoke = ['go', 'run', '.', 'testdata/SHA256SUMS'];
    assert.equal(policy.commandRefusal('qa', smoke), null);
    const outcome = await runSandboxed({
      argv: smoke,
      projectDir: dir,
      limits: { ...DEFAULT_SANDBOX_SETTINGS.limits, wallSeconds: 120 },
      setting: DEFAULT_SANDBOX_SETTINGS.mode,
      allowUnsandboxed: false,
    });
    const report = smokeReport(2, smoke, outcome);
    assert.equal(report.passed, true, outcome.output);
    assert.match(outcome.output, /^empty\.txt: listed$/m);
    // Neither run left a binary, a cache or anything else in the project.
    assert.deepEqual(await tree(dir), before);
  });

  it("runs a Python project's tests in tests/ with python3 -m unittest discover -s tests -v", async function () {
    requireSystem(this, BUBBLEWRAP, PYTHON);
    const dir = await project(MDTABLE);
    const testCommand = ['python3', '-m', 'unittest', 'discover', '-s', 'tests', '-v'];
    assert.equal(policyPort(DEFAULT_POLICY).commandRefusal('qa', testCommand), null);
    const round = await runTestRound({ round: 1, testCommand, projectDir: dir, timeoutMs: 60_000, sandbox: DEFAULT_SANDBOX_SETTINGS, progress: () => {} });
    assert.equal(round.passed, true, round.output);
    assert.deepEqual(round.counts, { passed: 2, failed: 0 });
    assert.deepEqual(
      round.cases.citing.map((c) => c.outcome),
      ['passed', 'passed'],
    );
  });

  it("runs a Rust crate's tests in tests/ with cargo test, each read by name", async function () {
    requireSystem(this, BUBBLEWRAP, CARGO);
    const dir = await project(COLSUM);
    const testCommand = ['cargo', 'test'];
    assert.equal(policyPort(DEFAULT_POLICY).commandRefusal('qa', testCommand), null);
    const round = await runTestRound({ round: 1, testCommand, projectDir: dir, timeoutMs: 180_000, sandbox: DEFAULT_SANDBOX_SETTINGS, progress: () => {} });
    assert.equal(round.passed, true, round.output);
    assert.deepEqual(round.counts, { passed: 2, failed: 0 });
    assert.deepEqual(round.cases.citing.map((c) => [c.name, c.outcome]).sort(), [
      ['tests/acceptance.rs > ac1_sums_the_numbers_of_a_line', 'passed'],
      ['tests/acceptance.rs > ac2_refuses_a_cell_that_is_not_a_number', 'passed'],
    ]);
  });

  it('runs the same crate unsandboxed (--allow-unsandboxed, no bubblewrap): cargo finds its own rustc, not the proxy', async function () {
    requireSystem(this, CARGO);
    const dir = await project(COLSUM);
    const round = await runTestRound({
      round: 1,
      testCommand: ['cargo', 'test'],
      projectDir: dir,
      timeoutMs: 180_000,
      sandbox: { ...DEFAULT_SANDBOX_SETTINGS, mode: 'fallback', allowUnsandboxed: true },
      progress: () => {},
    });
    assert.equal(round.passed, true, round.output);
    assert.deepEqual(round.counts, { passed: 2, failed: 0 });
  });

  it("installs nothing on the host for a rust-toolchain.toml naming a toolchain this machine lacks (rustup's own words say so)", async function () {
    requireSystem(this, BUBBLEWRAP, CARGO);
    const dir = await project({ ...COLSUM, 'rust-toolchain.toml': '[toolchain]\nchannel = "1.50.0"\n' });
    const toolchains = path.join(process.env.RUSTUP_HOME ?? path.join(os.homedir(), '.rustup'), 'toolchains');
    const before = await fs.readdir(toolchains).catch(() => null);
    const round = await runTestRound({
      round: 1,
      testCommand: ['cargo', 'test'],
      projectDir: dir,
      timeoutMs: 180_000,
      sandbox: DEFAULT_SANDBOX_SETTINGS,
      progress: () => {},
    });
    assert.deepEqual(await fs.readdir(toolchains).catch(() => null), before, 'no toolchain was installed');
    // Debian's cargo reads no rust-toolchain.toml; rustup's names the toolchain it lacks.
    if (before !== null) assert.match(round.output, /1\.50\.0/, round.output);
  });
});
