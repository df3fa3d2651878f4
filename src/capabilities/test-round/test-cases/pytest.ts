/**
 * pytest: `tests/test_a.py::test_x PASSED [ 50%]` (-v) and the short summary's `PASSED tests/test_a.py::test_x`
 * (-rA, or `FAILED …` whatever the flags). Its -q dots name no test. ERROR (at setup or teardown) and an
 * unexpected XPASS are failures; XFAIL is an expected failure, passed. A unittest subTest (pytest 9, or the
 * pytest-subtests plugin) that fails is `SUBFAILED(i=1) tests/t.py::T::test_x - …` in the short summary while
 * its test's own line says PASSED: the test failed. The summary line counts subtests apart
 * (`1 failed, 3 passed, 5 subtests passed in 0.9s`); they are no tests of their own.
 */
import { type CaseReader, gathered, type Outcome, type TestCase } from './cases.ts';

const STATUS: Record<string, Outcome> = { PASSED: 'passed', FAILED: 'failed', ERROR: 'failed', SKIPPED: 'skipped', XFAIL: 'passed', XPASS: 'failed' };
const VERBOSE = /^(\S[^\s:]*::.+?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b.*?(?:\[\s*\d+%\])?$/;
const SUMMARY = /^(PASSED|FAILED|ERROR|XFAIL|XPASS) (\S[^\s:]*::.+?)(?: - .*)?$/;
/** A failed subtest in the short summary: its parameters, the test's id (and the plugin's message), the error. */
const SUBFAILED = /^SUBFAIL(?:ED)?(\(.*?\))? (\S[^\s:]*::.+?)(?: - (.*))?$/;

/** The final line: "=== 1 failed, 3 passed, 5 subtests passed in 0.95s ===", or bare under -q; its counts in group 1. */
export const PYTEST_SUMMARY =
  /^(?:=+ )?((?:\d+ (?:subtests? )?(?:passed|failed|errors?|skipped|xfailed|xpassed|warnings?|deselected|rerun)(?:, )?)+) in [\d.]+s\b/m;

/** The test a failed subtest belongs to, and what failed: null for any other line. */
export function subtestFailure(line: string): { name: string; message: string } | null {
  const m = SUBFAILED.exec(line);
  if (!m) return null;
  // The plugin puts the subtest's message and parameters after the id: " [msg] (i=1)".
  const name = m[2]!.replace(/(?: \[[^\]]*\])?(?: \(.*\))?$/, '');
  const params = [m[1], m[2]!.slice(name.length).trim()].filter(Boolean).join(' ');
  return { name, message: [params, m[3] ?? ''].filter(Boolean).join(' ') };
}

export const readPytest: CaseReader = (text) => {
  if (!PYTEST_SUMMARY.test(text)) return null;
  const cases: TestCase[] = [];
  for (const line of text.split('\n')) {
    const verbose = VERBOSE.exec(line);
    if (verbose) cases.push({ name: verbose[1]!, outcome: STATUS[verbose[2]!]! });
    const summary = SUMMARY.exec(line);
    if (summary) cases.push({ name: summary[2]!, outcome: STATUS[summary[1]!]! });
    const subtest = subtestFailure(line);
    if (subtest) cases.push({ name: subtest.name, outcome: 'failed' });
  }
  return gathered(cases);
};
