/**
 * Vitest: `✓ file > suite > test 1ms` (its verbose reporter), or under a file's `❯ file (7 tests | 2
 * failed)` line `✓ suite > test 1ms` (its default one, which lists the tests of a failing file only);
 * `×` failed, `↓` skipped or todo. A file's own line (`✓ file (3 tests) 2ms`) is not a test.
 */
import { type CaseReader, gathered, type TestCase } from './cases.ts';

const LINE = /^ +(✓|√|×|✗|↓) (.+?)(?: \[skipped\])?(?: \d+(?:\.\d+)?m?s)?$/;
const FILE_LINE = / \(\d+ tests?(?: \| [^)]*)?\)(?: \d+(?:\.\d+)?m?s)?$/;

export const readVitest: CaseReader = (text) => {
  if (!/^ +Tests +.*\(\d+\)$/m.test(text)) return null;
  const cases: TestCase[] = [];
  for (const line of text.split('\n')) {
    if (FILE_LINE.test(line)) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    cases.push({ name: m[2]!.trim(), outcome: m[1] === '✓' || m[1] === '√' ? 'passed' : m[1] === '↓' ? 'skipped' : 'failed' });
  }
  return gathered(cases);
};
