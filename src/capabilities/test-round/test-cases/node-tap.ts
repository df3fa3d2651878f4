/**
 * TAP as node --test prints it (`ok 3 - name`, subtests indented four spaces under `# Subtest:` lines,
 * a parent's line after its children's) and as mocha's tap reporter does (`ok 3 full title`, flat).
 * Only the leaves are tests: a line whose children came just before it is their suite. tape prints each
 * test as a comment (`# AC-1: counts words`) and its assertions under it, flat (`ok 1 counts a single word`):
 * where no `# Subtest:` is printed, such a comment names the assertions that follow.
 */
import { type CaseReader, gathered, joined, type Outcome, SuiteStack, type TestCase } from './cases.ts';

const RESULT = /^( *)(not ok|ok) \d+(?: - | )(.*?)(?: # (SKIP|TODO)\b.*)?$/;
const SUBTEST = /^( *)# Subtest: (.*)$/;
/** A comment naming a tape test: not the counts at the end (`# tests 4`, `# pass  3`, `# ok`). */
const TAPE_TEST = /^# (?!(?:tests|pass|fail|skip|todo|suites|cancelled|skipped|duration_ms)\s+\d|ok$)(.+)$/;

export const readTap: CaseReader = (text) => {
  if (!/^(?:TAP version \d+|1\.\.\d+)$/m.test(text) || !/^\s*(?:not )?ok \d+ /m.test(text)) return null;
  const suites = new SuiteStack();
  const cases: (TestCase & { depth: number })[] = [];
  let lastDepth = -1;
  const tape = !/^ *# Subtest: /m.test(text);
  let tapeTest: string[] = [];
  for (const line of text.split('\n')) {
    const named = tape ? TAPE_TEST.exec(line) : null;
    if (named) {
      tapeTest = [named[1]!.trim()];
      continue;
    }
    const subtest = SUBTEST.exec(line);
    if (subtest) {
      suites.open(subtest[1]!.length / 4, subtest[2]!.trim());
      continue;
    }
    const m = RESULT.exec(line);
    if (!m) continue;
    const depth = Math.floor(m[1]!.length / 4);
    const name = m[3]!.trim();
    // A parent's line comes right after its children's, which are one level deeper.
    const isSuite = lastDepth > depth;
    lastDepth = depth;
    if (isSuite) continue;
    const outcome: Outcome = m[4] ? 'skipped' : m[2] === 'ok' ? 'passed' : 'failed';
    cases.push({ name: joined(tape ? tapeTest : suites.at(depth), name), outcome, depth });
  }
  return gathered(cases.map(({ name, outcome }) => ({ name, outcome })));
};
