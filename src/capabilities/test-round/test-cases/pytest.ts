/**
 * pytest: `tests/test_a.py::test_x PASSED [ 50%]` (-v) and the short summary's `PASSED tests/test_a.py::test_x`
 * (-rA, or `FAILED …` whatever the flags). Its -q dots name no test. ERROR (at setup or teardown) and an
 * unexpected XPASS are failures; XFAIL is an expected failure, passed.
 */
import { type CaseReader, gathered, type Outcome, type TestCase } from './cases.ts';

const STATUS: Record<string, Outcome> = { PASSED: 'passed', FAILED: 'failed', ERROR: 'failed', SKIPPED: 'skipped', XFAIL: 'passed', XPASS: 'failed' };
const VERBOSE = /^(\S[^\s:]*::.+?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b.*?(?:\[\s*\d+%\])?$/;
const SUMMARY = /^(PASSED|FAILED|ERROR|XFAIL|XPASS) (\S[^\s:]*::.+?)(?: - .*)?$/;

export const readPytest: CaseReader = (text) => {
  if (!/^(?:=+ )?(?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|warnings?|deselected|rerun)(?:, )?)+ in [\d.]+s\b/m.test(text)) return null;
  const cases: TestCase[] = [];
  for (const line of text.split('\n')) {
    const verbose = VERBOSE.exec(line);
    if (verbose) cases.push({ name: verbose[1]!, outcome: STATUS[verbose[2]!]! });
    const summary = SUMMARY.exec(line);
    if (summary) cases.push({ name: summary[2]!, outcome: STATUS[summary[1]!]! });
  }
  return gathered(cases);
};
