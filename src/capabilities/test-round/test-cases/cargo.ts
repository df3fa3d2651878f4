/**
 * `cargo test`'s output: a section a test binary (`Running unittests src/lib.rs (…)`, `Running tests/cli.rs
 * (…)`, `Doc-tests crate`), in it a line a test — `test tests::ac1_counts ... ok`, `... FAILED`,
 * `... ignored` (`ignored, reason` too) — and the section's `test result:` line. A test's name is its
 * binary's source and its path in the crate (`src/lib.rs > tests::ac1_counts`); a doc test's names its file already.
 */
import { type CaseReader, gathered, joined, type Outcome, type TestCase } from './cases.ts';

const SECTION = /^\s+(?:Running (?:unittests )?(\S+) \(|Doc-tests )/;
const TEST = /^test (.+?) \.\.\. (ok|FAILED|ignored)\b/;
const OUTCOME: Record<string, Outcome> = { ok: 'passed', FAILED: 'failed', ignored: 'skipped' };

export const readCargo: CaseReader = (text) => {
  if (!/^test result: \w+\. \d+ passed; \d+ failed;/m.test(text)) return null;
  const cases: TestCase[] = [];
  let binary: string[] = [];
  for (const line of text.split('\n')) {
    const section = SECTION.exec(line);
    const test = section ? null : TEST.exec(line);
    if (section) binary = section[1] ? [section[1]] : [];
    else if (test) cases.push({ name: joined(binary, test[1]!), outcome: OUTCOME[test[2]!]! });
  }
  return gathered(cases);
};
