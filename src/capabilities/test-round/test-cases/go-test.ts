/**
 * go test -v: `--- PASS: TestX (0.00s)`, `--- FAIL:`, `--- SKIP:`, subtests indented as `TestX/case_name`.
 * A test with subtests is their parent, not a test of its own. Without -v only failures are printed.
 */
import { type CaseReader, gathered, type TestCase } from './cases.ts';

const RESULT = /^\s*--- (PASS|FAIL|SKIP): (\S+) \([\d.]+s\)$/;

export const readGoTest: CaseReader = (text) => {
  if (!/^\s*--- (?:PASS|FAIL|SKIP): \S+ \([\d.]+s\)$/m.test(text)) return null;
  const cases: TestCase[] = [];
  for (const line of text.split('\n')) {
    const m = RESULT.exec(line);
    if (m) cases.push({ name: m[2]!, outcome: m[1] === 'PASS' ? 'passed' : m[1] === 'SKIP' ? 'skipped' : 'failed' });
  }
  const names = cases.map((c) => c.name);
  return gathered(cases.filter((c) => !names.some((other) => other.startsWith(`${c.name}/`))));
};
