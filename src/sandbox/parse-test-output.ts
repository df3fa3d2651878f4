/**
 * Reads a test runner's output: counts and failing tests, for node:test (TAP or spec), pytest and
 * unittest. Pure. Anything it does not recognise leaves counts null and the exit code decides.
 */
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';

export interface ParsedTestOutput {
  counts: { passed: number; failed: number } | null;
  failures: { name: string; message: string }[];
}

const num = (text: string, re: RegExp): number | null => {
  const m = re.exec(text);
  return m ? Number(m[1]) : null;
};

export function parseTestOutput(output: string): ParsedTestOutput {
  const text = output.replace(/\r\n/g, '\n');
  // node:test — TAP ("# pass 3") or spec ("ℹ pass 3")
  const nodePass = num(text, /^(?:#|ℹ) pass (\d+)$/m);
  const nodeFail = num(text, /^(?:#|ℹ) fail (\d+)$/m);
  if (nodePass !== null && nodeFail !== null) {
    return { counts: { passed: nodePass, failed: nodeFail }, failures: tapFailures(text) };
  }
  // pytest — "=== 1 failed, 4 passed in 0.12s ==="
  const pytest = /^=+ (.*\b(?:passed|failed|errors?)\b.*) in [\d.]+s/m.exec(text);
  if (pytest) {
    const summary = pytest[1]!;
    return {
      counts: {
        passed: num(summary, /(\d+) passed/) ?? 0,
        failed: (num(summary, /(\d+) failed/) ?? 0) + (num(summary, /(\d+) errors?/) ?? 0),
      },
      failures: [...text.matchAll(/^(?:FAILED|ERROR) (\S+)(?: - (.*))?$/gm)].map((m) => ({ name: m[1]!, message: m[2] ?? '' })),
    };
  }
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
  return { counts: null, failures: [] };
}

/** TAP "not ok N - name", with the error message from the YAML diagnostics block that follows it. */
function tapFailures(text: string): { name: string; message: string }[] {
  const failures: { name: string; message: string }[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const m = /^(\s*)not ok \d+ - (.*?)(?: # .*)?$/.exec(line);
    if (!m) return;
    const diagnostics = tapDiagnostics(lines, index + 1);
    // A suite whose failure is only that a subtest failed is reported by the subtest.
    if (diagnostics.failureType === 'subtestsFailed') return;
    const error = typeof diagnostics.error === 'string' ? diagnostics.error : '';
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
      ? parsed.failures.map((f) => `${f.name}\n${f.message}`).sort().join('\n--\n')
      : `${exitCode}:${timedOut}:${output.replace(/\d+(\.\d+)?\s*m?s\b/g, '').slice(-2000)}`;
  return createHash('sha256').update(basis).digest('hex').slice(0, 16);
}
