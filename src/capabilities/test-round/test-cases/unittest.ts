/**
 * unittest -v: `test_x (pkg.mod.Class.test_x) ... ok` (Python 3.11+; older ones print `(pkg.mod.Class)`),
 * `FAIL`, `ERROR`, `skipped 'why'`, `expected failure`, `unexpected success`; a docstring's first line on
 * the line after the name, before ` ... ok`, is part of the test's title; a failed subtest
 * (`  test_x (…) (i=1) ... FAIL`) fails its test. Without -v it names only the failures.
 */
import { type CaseReader, gathered, type Outcome, type TestCase } from './cases.ts';

const HEAD = /^ *(\w+) \(([\w.]+)\)(?: \(.*\))?(?: \.\.\. (.*))?$/;
const STATUS = /^(ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)$/;
const FAILED_HEADER = /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/;

const outcomeOf = (status: string): Outcome =>
  status === 'ok' || status === 'expected failure' ? 'passed' : status.startsWith('skipped') ? 'skipped' : 'failed';

const fullName = (method: string, where: string): string => (where.endsWith(`.${method}`) ? where : `${where}.${method}`);

export const readUnittest: CaseReader = (text) => {
  if (!/^Ran \d+ tests? in /m.test(text)) return null;
  const lines = text.split('\n');
  const cases: TestCase[] = [];
  lines.forEach((line, index) => {
    const failed = FAILED_HEADER.exec(line);
    if (failed) cases.push({ name: fullName(failed[1]!, failed[2]!), outcome: 'failed' });
    const head = HEAD.exec(line);
    if (!head) return;
    const name = fullName(head[1]!, head[2]!);
    if (head[3] !== undefined) {
      const status = head[3].trim();
      if (STATUS.test(status)) cases.push({ name, outcome: outcomeOf(status) });
      return;
    }
    // A docstring's first line, then the status.
    const next = /^(.+?) \.\.\. (.*)$/.exec(lines[index + 1] ?? '');
    if (next && !HEAD.test(lines[index + 1]!) && STATUS.test(next[2]!.trim())) {
      cases.push({ name: `${name}: ${next[1]!.trim()}`, outcome: outcomeOf(next[2]!.trim()) });
    }
  });
  // A failure's header names the test without its docstring, which the -v line gave it.
  const titled = cases.map((c) => c.name).filter((n) => n.includes(': '));
  return gathered(cases.filter((c) => !titled.some((t) => t.startsWith(`${c.name}: `))));
};
