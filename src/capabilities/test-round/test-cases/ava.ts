/**
 * AVA's default reporter (3 to 6): before the first `─` line, a line a test — `✔ file › title` passed,
 * `✖ file › title message` (AVA 3) or `✘ [fail]: file › title message` failed, `- file › title` (AVA 3)
 * or `- [skip] …` / `- [todo] …` skipped — the `file › ` left out when one file ran; after it the failures'
 * details, then the counts (`2 tests failed`, `50 tests passed`). A failed test's line runs on into its
 * error's first words (`… inner bad Error thrown in test`): the name keeps them, the criterion it cites stays.
 */
import { type CaseReader, gathered, type TestCase } from './cases.ts';

const PASSED = /^ {2}✔ (.+?)(?: \(\d+(?:\.\d+)?m?s\))?$/;
const FAILED = /^ {2}(?:✖|✘ \[fail\]:) (.+?)\s*$/;
const SKIPPED = /^ {2}- (?:\[(?:skip|todo)\] )?(.+?)\s*$/;

export const readAva: CaseReader = (text) => {
  if (!/^ {2}─$/m.test(text) || !/^ {2}\d+ tests? (?:passed|failed)$/m.test(text)) return null;
  const cases: TestCase[] = [];
  for (const line of text.split('\n')) {
    if (/^ {2}─$/.test(line)) break;
    const passed = PASSED.exec(line);
    const failed = passed ? null : FAILED.exec(line);
    const skipped = passed || failed ? null : SKIPPED.exec(line);
    if (passed) cases.push({ name: passed[1]!, outcome: 'passed' });
    else if (failed) cases.push({ name: failed[1]!, outcome: 'failed' });
    else if (skipped) cases.push({ name: skipped[1]!, outcome: 'skipped' });
  }
  return gathered(cases);
};
