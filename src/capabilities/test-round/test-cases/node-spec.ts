/**
 * node --test's spec reporter: `✔ name (1.2ms)`, `✖ name (1.2ms)`, `﹣ name (0.1ms) # reason` (skipped),
 * suites opened by `▶ name` and closed by a line of their own name, two spaces a level; the list under
 * "✖ failing tests:" repeats failures and is not read.
 */
import { type CaseReader, gathered, joined, type Outcome, SuiteStack, type TestCase } from './cases.ts';

const LINE = /^( *)(▶|✔|✖|﹣) (.+?)(?: \([\d.]+m?s\))?(?: # .*)?$/;
const MARK: Record<string, Outcome> = { '✔': 'passed', '✖': 'failed', '﹣': 'skipped' };

export const readNodeSpec: CaseReader = (text) => {
  if (!/^ℹ tests \d+$/m.test(text)) return null;
  const end = text.indexOf('\n✖ failing tests:');
  const suites = new SuiteStack();
  const cases: TestCase[] = [];
  for (const line of (end === -1 ? text : text.slice(0, end)).split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const depth = Math.floor(m[1]!.length / 2);
    const [mark, name] = [m[2]!, m[3]!.trim()];
    if (suites.isOpen(depth, name)) {
      suites.close(depth);
      continue;
    }
    if (mark === '▶') {
      if (!/\([\d.]+m?s\)$/.test(line)) suites.open(depth, name);
      continue;
    }
    cases.push({ name: joined(suites.at(depth), name), outcome: MARK[mark]! });
  }
  return gathered(cases);
};
