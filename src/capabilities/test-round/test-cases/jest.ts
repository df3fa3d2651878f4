/**
 * Jest's verbose listing (`--verbose`, or a run of one file): under each `PASS file` / `FAIL file`,
 * suites as plain lines and tests as `✓ name (2 ms)`, `✕ name`, `○ skipped name`, `○ todo name`, two
 * spaces a level; a file's `● suite › test` details are not read. Jest before 20 (still pinned by old
 * repositories: prop-types has 19) prints ` FAIL  file`, a file's details before its listing rather than
 * after it, and its skipped tests as a count (`○ skipped 2 tests`), which names none.
 */
import { type CaseReader, gathered, joined, SuiteStack, type TestCase } from './cases.ts';

const TEST = /^(✓|√|✕|×|○ skipped|○ todo) (.+?)(?: \(\d+(?:\.\d+)? ?m?s\))?$/;

export const readJest: CaseReader = (text) => {
  if (!/^Tests:\s+.*\b\d+ total$/m.test(text)) return null;
  const cases: TestCase[] = [];
  let suites: SuiteStack | null = null;
  // Whether the current file's listing has begun, and whether its failures' details are being passed over.
  let listing = false;
  let inDetails = false;
  for (const line of text.split('\n')) {
    if (/^ ?(?:PASS|FAIL) +\S/.test(line)) {
      suites = new SuiteStack();
      listing = false;
      inDetails = false;
      continue;
    }
    const indent = line.length - line.trimStart().length;
    if (/^Test Suites:/.test(line)) suites = null;
    // The details of the file's failures end its listing, or (before Jest 20) come before it: a line at the
    // listing's first level that is no detail's title then starts the listing.
    if (suites && /^\s+● /.test(line)) {
      if (listing) suites = null;
      else inDetails = true;
      continue;
    }
    if (inDetails) {
      if (indent !== 2 || line.trim() === '') continue;
      inDetails = false;
    }
    if (!suites || indent < 2 || line.trim() === '') continue;
    if (/^○ skipped \d+ tests?$/.test(line.trim())) continue;
    listing = true;
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
