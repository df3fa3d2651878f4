/**
 * go test -v: `--- PASS: TestX (0.00s)`, `--- FAIL:`, `--- SKIP:`, subtests indented as `TestX/case_name`.
 * A test with subtests is their parent, not a test of its own. Without -v only failures are printed.
 * A package whose tests did not compile (`FAIL pkg [build failed]`, `[setup failed]`) ran none of them:
 * it is one failure, named by the package, whose message is the compiler's.
 */
import { type CaseReader, gathered, type TestCase } from './cases.ts';

const RESULT = /^\s*--- (PASS|FAIL|SKIP): (\S+) \([\d.]+s\)$/;
const NOT_BUILT = /^FAIL\s+(\S+) \[(build|setup) failed\]$/;

export const readGoTest: CaseReader = (text) => {
  const lines = text.split('\n');
  const notBuilt = lines.flatMap((line) => {
    const m = NOT_BUILT.exec(line);
    return m ? [{ name: `${m[1]} [${m[2]} failed]`, outcome: 'failed' as const }] : [];
  });
  if (notBuilt.length === 0 && !/^\s*--- (?:PASS|FAIL|SKIP): \S+ \([\d.]+s\)$/m.test(text)) return null;
  const cases: TestCase[] = [];
  for (const line of lines) {
    const m = RESULT.exec(line);
    if (m) cases.push({ name: m[2]!, outcome: m[1] === 'PASS' ? 'passed' : m[1] === 'SKIP' ? 'skipped' : 'failed' });
  }
  const names = cases.map((c) => c.name);
  return gathered([...cases.filter((c) => !names.some((other) => other.startsWith(`${c.name}/`))), ...notBuilt]);
};

/**
 * What go test printed of a failure: for a package not built, the compiler's lines under its `# pkg`
 * header (and go's `note: module requires Go 1.21`); for a test, the lines it logged under its
 * `=== RUN` (go 1.14 and later print them there, before its `--- FAIL`). '' when there are none.
 */
export function goFailureMessage(text: string, name: string): string {
  const lines = text.split('\n');
  const notBuilt = /^(\S+) \[(?:build|setup) failed\]$/.exec(name);
  const start = notBuilt
    ? lines.findIndex((l) => l === `# ${notBuilt[1]}` || l.startsWith(`# ${notBuilt[1]} [`))
    : lines.findIndex((l) => new RegExp(`^=== RUN\\s+${escaped(name)}$`).test(l));
  if (start === -1) return '';
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^(# |=== |\s*--- |FAIL\b|ok\s|PASS$|\?\s)/.test(line)) break;
    if (line.trim() !== '') body.push(line.trim());
  }
  return body.slice(0, 6).join('\n');
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
