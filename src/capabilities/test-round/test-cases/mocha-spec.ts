/**
 * mocha's spec reporter: suites as plain lines, tests as `✔ name (12ms)` (`✓` in older versions),
 * `3) name` when failed and `- name` when pending, two spaces a level from two; the failures' details
 * after the "N passing" line are not read. Lines a test printed at the left margin are not its suites.
 */
import { type CaseReader, gathered, joined, SuiteStack, type TestCase } from './cases.ts';

const PASSED = /^(?:✔|✓) (.+?)(?: \(\d+m?s\))?$/;
const FAILED = /^\d+\) (.+)$/;
const PENDING = /^- (.+)$/;

export const readMochaSpec: CaseReader = (text) => {
  const summary = /^ {2}\d+ passing \(\d+m?s\)$/m.exec(text) ?? /^ {2}\d+ failing$/m.exec(text);
  if (!summary) return null;
  const suites = new SuiteStack();
  const cases: TestCase[] = [];
  for (const line of text.slice(0, summary.index).split('\n')) {
    const indent = line.length - line.trimStart().length;
    const body = line.trim();
    if (indent < 2 || body === '') continue;
    const depth = indent / 2 - 1;
    const passed = PASSED.exec(body);
    const failed = FAILED.exec(body);
    const pending = PENDING.exec(body);
    if (passed) cases.push({ name: joined(suites.at(depth), passed[1]!), outcome: 'passed' });
    else if (failed) cases.push({ name: joined(suites.at(depth), failed[1]!), outcome: 'failed' });
    else if (pending) cases.push({ name: joined(suites.at(depth), pending[1]!), outcome: 'skipped' });
    else suites.open(depth, body);
  }
  return gathered(cases);
};
