/**
 * Reads a test runner's output: counts and failing tests, for node:test (its tap, spec and dot
 * reporters), pytest (default, -q, -v; with or without its short summary) and unittest (verbose or
 * not), the summaries of vitest, jest, mocha, `go test` and `cargo test` (runner-counts.ts: "no tests"
 * said as 0 of each) — and, for a run cut short, the test that was running when the output stops, where
 * the runner prints a test's name before its result (pytest -v, unittest -v, TAP). A runner without a
 * summary line it knows (mocha, Jest, Vitest, go test -v) is counted from the tests it lists
 * (test-cases/read-test-cases.ts). Pure. Anything it does not recognise leaves counts null and the
 * exit code decides.
 */

import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { escapeRegExp } from '../../ground/files/index.ts';
import { cargoCounts, goCounts, jasmineCounts, jestCounts, mochaCounts, vitestCounts } from './runner-counts.ts';
import { PYTEST_SUMMARY, subtestFailure } from './test-cases/pytest.ts';
import { listedFailureMessage, listedOnlyCases } from './test-cases/read-test-cases.ts';
import { uvuCounts } from './test-cases/uvu.ts';

export interface ParsedTestOutput {
  counts: { passed: number; failed: number } | null;
  failures: { name: string; message: string }[];
  /** Tests the runner skipped (pytest's skipped and xfailed, mocha's pending …): a run of skips alone still ran its tests. */
  skipped?: number;
  /** The test whose name was printed but not its result: the one running when the output stopped. */
  running?: string | null;
}

const num = (text: string, re: RegExp): number | null => {
  const m = re.exec(text);
  return m ? Number(m[1]) : null;
};

export function parseTestOutput(output: string): ParsedTestOutput {
  const text = output.replace(/\r\n/g, '\n');
  const running = runningTest(text);
  return { ...readCounts(text), ...(running ? { running } : {}) };
}

function readCounts(text: string): Omit<ParsedTestOutput, 'running'> {
  const summary = readSummary(text);
  if (summary.counts) return summary;
  const cases = listedOnlyCases(text);
  if (!cases) return summary;
  const failed = cases.filter((c) => c.outcome === 'failed');
  return {
    counts: { passed: cases.filter((c) => c.outcome === 'passed').length, failed: failed.length },
    failures: failed.map((c) => ({ name: c.name, message: listedFailureMessage(text, c.name) })),
  };
}

function readSummary(text: string): Omit<ParsedTestOutput, 'running'> {
  // node:test — TAP ("# pass 3") or spec ("ℹ pass 3"); tape's TAP aligns its counts ("# pass  3") and
  // prints no "# fail" line when nothing failed, only "# ok"
  const nodePass = num(text, /^(?:#|ℹ) pass +(\d+)$/m);
  const nodeFail = num(text, /^(?:#|ℹ) fail +(\d+)$/m) ?? (/^# tests +\d+$/m.test(text) && /^# ok$/m.test(text) ? 0 : null);
  if (nodePass !== null && nodeFail !== null) {
    return { counts: { passed: nodePass, failed: nodeFail }, failures: /^\s*not ok \d+/m.test(text) ? tapFailures(text) : specFailures(text) };
  }
  // pytest — "=== 1 failed, 4 passed in 0.12s ===", or bare under -q: "1 failed, 4 passed in 0.12s"
  const pytest = PYTEST_SUMMARY.exec(text);
  if (pytest) {
    const summary = pytest[1]!;
    // A parametrized test's id may hold spaces: the id runs to the " - " before the message, or to the line's end.
    const listed = withSectionMessages(
      [
        ...[...text.matchAll(/^(?:FAILED|ERROR) (\S.*?)(?: - (.*))?$/gm)].map((m) => ({ name: m[1]!, message: m[2] ?? '' })),
        ...text.split('\n').flatMap((line) => subtestFailure(line) ?? []),
      ],
      text,
    );
    const skipped = (num(summary, /(\d+) skipped/) ?? 0) + (num(summary, /(\d+) xfailed/) ?? 0) + (num(summary, /(\d+) xpassed/) ?? 0);
    return {
      counts: {
        passed: num(summary, /(\d+) passed/) ?? 0,
        failed: (num(summary, /(\d+) failed/) ?? 0) + (num(summary, /(\d+) errors?/) ?? 0),
      },
      // Without its short summary (-rN, old versions), the FAILURES section's headers name the tests.
      failures: listed.length > 0 ? listed : pytestSections(text),
      ...(skipped > 0 ? { skipped } : {}),
    };
  }
  if (/^(?:=+ )?no tests ran in [\d.]+s/m.test(text)) return { counts: { passed: 0, failed: 0 }, failures: [] };
  // unittest — "Ran 5 tests" then "OK" or "FAILED (failures=1, errors=1)"
  const ran = num(text, /^Ran (\d+) tests? in/m);
  if (ran !== null) {
    const failed = (num(text, /FAILED \(.*?failures=(\d+)/) ?? 0) + (num(text, /FAILED \(.*?errors=(\d+)/) ?? 0);
    const failures = [...text.matchAll(/^(?:FAIL|ERROR): (\S+) \(([^)]+)\)\n-+\n([\s\S]*?)(?=\n={5,}|\n-{5,}\nRan )/gm)].map((m) => ({
      // Python 3.11+ prints "test_x (module.Class.test_x)", older ones "test_x (module.Class)".
      name: m[2]!.endsWith(`.${m[1]}`) ? m[2]! : `${m[2]}.${m[1]}`,
      message: lastLines(m[3] ?? '', 6),
    }));
    return { counts: { passed: ran - failed, failed }, failures };
  }
  const other = vitestCounts(text) ?? jestCounts(text) ?? mochaCounts(text) ?? jasmineCounts(text) ?? cargoCounts(text) ?? uvuCounts(text) ?? goCounts(text);
  if (other) return other;
  // node:test's dot reporter — a line of "." and "X", then "Failed tests:" with each failure
  // (its first line, or followed by its "Failed tests:" list — a "..." printed by a program is not it)
  const dots = /^[.X]+$/m.exec(text);
  if (dots && (text.trimStart().startsWith(dots[0]) || text.includes('\nFailed tests:\n'))) {
    const failures = markedFailures(text.slice(text.indexOf('Failed tests:') + 1 || text.length));
    return { counts: { passed: (dots[0].match(/\./g) ?? []).length, failed: failures.length }, failures };
  }
  return { counts: null, failures: [] };
}

/**
 * The short summary's failures, each without a message (pytest leaves it out when the line would pass the
 * terminal's width, as a long test id does) given the "E   " lines of its FAILURES section, found by the
 * section's header: the id after its file, classes joined by dots ("TestA.test_x[1]").
 */
function withSectionMessages(listed: { name: string; message: string }[], text: string): { name: string; message: string }[] {
  if (listed.every((f) => f.message !== '')) return listed;
  const sections = new Map(pytestSections(text).map((s) => [s.name, s.message]));
  return listed.map((f) => (f.message !== '' ? f : { name: f.name, message: sections.get(f.name.split('::').slice(1).join('.')) ?? '' }));
}

/** pytest's FAILURES/ERRORS sections: "____ test_name ____" (one "_" each side of a long name) and the "E   " lines under it. */
function pytestSections(text: string): { name: string; message: string }[] {
  return [...text.matchAll(/^_+ (.+?) _+\n([\s\S]*?)(?=^_+ .+ _+$|^=+ |^\d+ (?:passed|failed)|(?![\s\S]))/gm)].map((m) => ({
    name: m[1]!.trim(),
    message: [...m[2]!.matchAll(/^E +(.*)$/gm)]
      .map((e) => e[1]!.trim())
      .slice(0, 6)
      .join('\n'),
  }));
}

/**
 * The failures of node:test's spec reporter (its "failing tests" section, else the whole output) or
 * of its dot reporter: "✖ name (1.2ms)" and the message indented under it.
 */
function specFailures(text: string): { name: string; message: string }[] {
  const section = text.indexOf('✖ failing tests:');
  return markedFailures(section === -1 ? text : text.slice(section + '✖ failing tests:'.length));
}

function markedFailures(text: string): { name: string; message: string }[] {
  const failures: { name: string; message: string }[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const m = /^(\s*)✖ (.+?) \([\d.]+m?s\)$/.exec(line);
    if (!m) return;
    const body: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (next.trim() !== '' && next.length - next.trimStart().length <= m[1]!.length) break;
      body.push(next.trim());
    }
    // The error's text, without its stack or the fields Node prints after it (`code: 'ERR_ASSERTION',`).
    const message = body
      .filter((l) => l !== '' && !/^at /.test(l) && !/^\w+: .*,$|^[{}]$/.test(l))
      .slice(0, 4)
      .join('\n');
    // A suite whose failure is only that a subtest failed is reported by the subtest.
    if (/^'?\d+ subtests? failed'?$/.test(message) || (message === '' && lines.some((l) => l.startsWith(`${m[1]}▶ ${m[2]}`)))) return;
    if (!failures.some((f) => f.name === m[2])) failures.push({ name: m[2]!, message });
  });
  return failures;
}

/**
 * The test a run was in when its output stops: a name printed before its result, and no result after
 * it — pytest -v ("tests/test_a.py::test_x "), unittest -v ("test_x (mod.Class.test_x) ... "), TAP
 * ("# Subtest: x" without its "ok"). Null when the output ends between tests or does not say.
 */
function runningTest(text: string): string | null {
  const last = text.trimEnd().split('\n').at(-1) ?? '';
  const pytest = /^(\S+::\S+)\s*$/.exec(last);
  if (pytest) return pytest[1]!;
  const unittest = /^(\w+) \(([^)]+)\)(?: \.\.\.)?\s*$/.exec(last.trimEnd());
  if (unittest && /\.\.\.\s*$/.test(last)) return unittest[2]!.endsWith(`.${unittest[1]}`) ? unittest[2]! : `${unittest[2]}.${unittest[1]}`;
  const subtests = [...text.matchAll(/^\s*# Subtest: (.+)$/gm)];
  const lastSubtest = subtests.at(-1);
  if (lastSubtest && !new RegExp(`^\\s*(?:not )?ok \\d+ - ${escapeRegExp(lastSubtest[1]!)}`, 'm').test(text.slice(lastSubtest.index)))
    return lastSubtest[1]!.trim();
  return null;
}

/** TAP "not ok N - name", with the error message from the YAML diagnostics block that follows it. */
function tapFailures(text: string): { name: string; message: string }[] {
  const failures: { name: string; message: string }[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const m = /^(\s*)not ok \d+(?: - | )(.*?)(?: # .*)?$/.exec(line);
    if (!m) return;
    const diagnostics = tapDiagnostics(lines, index + 1);
    // A suite whose failure is only that a subtest failed is reported by the subtest.
    if (diagnostics.failureType === 'subtestsFailed') return;
    // tape says what it compared, not an error: "equal: expected 'a', actual 'A'".
    const compared =
      'expected' in diagnostics ? `${diagnostics.operator ?? 'assertion'}: expected ${String(diagnostics.expected)}, actual ${String(diagnostics.actual)}` : '';
    const error = typeof diagnostics.error === 'string' ? diagnostics.error : compared;
    failures.push({ name: m[2]!.trim(), message: error.trim() });
  });
  return failures;
}

/** The YAML block between "---" and "..." after a TAP test line, parsed; {} when there is none. */
function tapDiagnostics(lines: string[], from: number): Record<string, unknown> {
  if (lines[from]?.trim() !== '---') return {};
  const end = lines.findIndex((l, i) => i > from && l.trim() === '...');
  if (end === -1) return {};
  const block = lines.slice(from + 1, end);
  const indent = Math.min(...block.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  try {
    const parsed: unknown = parseYaml(block.map((l) => l.slice(indent)).join('\n'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const lastLines = (text: string, n: number): string => text.trim().split('\n').slice(-n).join('\n');

/** A timing-free identity of a failure: the same tests failing the same way give the same signature. */
export function failureSignature(parsed: ParsedTestOutput, exitCode: number | null, timedOut: boolean, output: string): string {
  const basis =
    parsed.failures.length > 0
      ? parsed.failures
          .map((f) => `${f.name}\n${f.message}`)
          .sort()
          .join('\n--\n')
      : `${exitCode}:${timedOut}:${output.replace(/\d+(\.\d+)?\s*m?s\b/g, '').slice(-2000)}`;
  return createHash('sha256').update(basis).digest('hex').slice(0, 16);
}
