/**
 * Jest's verbose listing (`--verbose`, or a run of one file): under each `PASS file` / `FAIL file`,
 * suites as plain lines and tests as `✓ name (2 ms)`, `✕ name`, `○ skipped name`, `○ todo name`, two
 * spaces a level; a file's `● suite › test` details are not read.
 */
import { type CaseReader, gathered, joined, SuiteStack, type TestCase } from './cases.ts';

const TEST = /^(✓|√|✕|×|○ skipped|○ todo) (.+?)(?: \(\d+(?:\.\d+)? m?s\))?$/;

export const readJest: CaseReader = (text) => {
  if (!/^Tests:\s+.*\b\d+ total$/m.test(text)) return null;
  const cases: TestCase[] = [];
  let suites: SuiteStack | null = null;
  for (const line of text.split('\n')) {
    if (/^(?:PASS|FAIL) \S/.test(line)) {
      suites = new SuiteStack();
      continue;
    }
    // The details of the file's failures, and the summary, end its listing.
    if (/^\s+● |^Test Suites:/.test(line)) suites = null;
    const indent = line.length - line.trimStart().length;
    if (!suites || indent < 2 || line.trim() === '') continue;
    const depth = indent / 2 - 1;
    const m = TEST.exec(line.trim());
    if (!m) {
      suites.open(depth, line.trim());
      continue;
    }
    const outcome = m[1] === '✓' || m[1] === '√' ? 'passed' : m[1] === '✕' || m[1] === '×' ? 'failed' : 'skipped';
    cases.push({ name: joined(suites.at(depth), m[2]!), outcome });
  }
  return gathered(cases);
};
