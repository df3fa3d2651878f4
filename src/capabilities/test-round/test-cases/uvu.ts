/**
 * uvu's reporter (0.3 to 0.5): a file's name on its own line, then a line a suite — its name (none for the
 * file's bare `test()`s), a `•` for each test passed and a `✘` for each failed, `(passed / run)` — and under
 * it each failure as `FAIL  suite  "test"` with its message; the counts at the end (`Total:`, `Passed:`,
 * `Skipped:`). A passing test's name is printed nowhere, so a suite's passing tests are one case, named
 * by the suite (where a criterion's id goes: `suite('AC-3: …')`), and each failure a case of its own.
 */
import { type CaseReader, gathered, joined, type TestCase } from './cases.ts';

const SUITE = /^(.*?)\s*((?:[•✘] ?)+)\s+\((\d+) \/ (\d+)\)\s*$/;
const FAIL = /^\s+FAIL\s+(?:(.+?)\s{2,})?"(.+)"\s*$/;
const FILE = /^[^\s>].*\.[cm]?[jt]sx?$/;

/** Whether the output ends with uvu's counts. */
export const isUvu = (text: string): boolean => /^ {2}Total: +\d+\s*$/m.test(text) && /^ {2}Passed: +\d+\s*$/m.test(text);

export const readUvu: CaseReader = (text) => {
  if (!isUvu(text)) return null;
  const cases: TestCase[] = [];
  let file: string[] = [];
  for (const line of text.split('\n')) {
    const suite = SUITE.exec(line);
    const failure = suite ? null : FAIL.exec(line);
    if (suite) {
      const name = suite[1]!.trim();
      if (Number(suite[3]) > 0) cases.push({ name: name ? joined(file, name) : file.join(' > ') || '(tests)', outcome: 'passed' });
    } else if (failure) {
      cases.push({ name: joined(failure[1] ? [...file, failure[1].trim()] : file, failure[2]!), outcome: 'failed' });
    } else if (FILE.test(line.trim()) && !line.startsWith(' ')) {
      file = [line.trim()];
    }
  }
  return gathered(cases);
};

/** uvu's counts: its Total is what ran (the skipped left out), so failed is Total less Passed; each failure with its message's first line. */
export function uvuCounts(
  text: string,
): { counts: { passed: number; failed: number }; failures: { name: string; message: string }[]; skipped?: number } | null {
  if (!isUvu(text)) return null;
  const number = (label: string): number => Number(new RegExp(`^ {2}${label}: +(\\d+)\\s*$`, 'm').exec(text)?.[1] ?? 0);
  const [total, passed, skipped] = [number('Total'), number('Passed'), number('Skipped')];
  const lines = text.split('\n');
  const failures = lines.flatMap((line, i) => {
    const failure = FAIL.exec(line);
    if (!failure) return [];
    const message =
      lines
        .slice(i + 1)
        .find((l) => l.trim() !== '')
        ?.trim() ?? '';
    return [{ name: failure[1] ? `${failure[1].trim()} > ${failure[2]}` : failure[2]!, message }];
  });
  return { counts: { passed, failed: Math.max(0, total - passed) }, failures, ...(skipped > 0 ? { skipped } : {}) };
}
