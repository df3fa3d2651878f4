/**
 * Counts and failing tests from the summaries of vitest, jest, mocha (spec reporter), jasmine and `cargo test`,
 * with their failures' messages — and "no tests" said as 0 of each, never as a pass (vitest's "No test
 * files found", jest's "No tests found", mocha's "No test files found", Go's "[no test files]" on every
 * package, cargo's "running 0 tests"). Each returns null for output that is not its runner's. Pure.
 */
type Failure = { name: string; message: string };
/** What parse-test-output.ts's ParsedTestOutput holds of a run's counts (it imports this file, so the shape is repeated here). */
interface Counts {
  counts: { passed: number; failed: number } | null;
  failures: Failure[];
  skipped?: number;
}

const count = (text: string, re: RegExp): number => Number(re.exec(text)?.[1] ?? 0);
const NONE: Counts = { counts: { passed: 0, failed: 0 }, failures: [] };

/** vitest: "Tests  1 failed | 28 passed (29)"; its failures under "FAIL  file > suite > name". */
export function vitestCounts(text: string): Counts | null {
  if (/^\s*No test files found/m.test(text)) return NONE;
  const line = /^\s*Tests\s+((?:\d+ \w+(?: \| )?)+)\s*\(\d+\)\s*$/m.exec(text)?.[1];
  if (!line) return null;
  return { counts: { passed: count(line, /(\d+) passed/), failed: count(line, /(\d+) failed/) }, failures: unique(vitestFailures(text)), ...skipped(line) };
}

/**
 * vitest's "Failed Tests" section: a "FAIL  file > suite > name" header per test, and the error under it —
 * once for several tests that failed with the same error, their headers one under the other.
 */
function vitestFailures(text: string): Failure[] {
  const failures: Failure[] = [];
  let waiting: string[] = [];
  for (const line of text.split('\n')) {
    const header = /^\s*FAIL\s+(\S.*?)\s*$/.exec(line);
    if (header) {
      if (header[1]!.includes(' > ')) waiting.push(header[1]!);
    } else if (waiting.length > 0 && line.trim() !== '') {
      for (const name of waiting) failures.push({ name, message: line.trim() });
      waiting = [];
    }
  }
  return failures;
}

/** jest: "Tests:       1 failed, 2 passed, 3 total"; its failures as "● suite › name" and the message under it. */
export function jestCounts(text: string): Counts | null {
  if (/^\s*No tests found/m.test(text)) return NONE;
  const line = /^Tests:\s+(.*\d+ total)\s*$/m.exec(text)?.[1];
  if (!line) return null;
  // A file that could not even load is one failure, named by its file ("FAIL test/x.test.js").
  const failures = [...text.matchAll(/^\s*● (.+?)\s*$\n(?:\s*\n)*\s*(\S.*)$/gm)].map((m) => {
    const file = [...text.slice(0, m.index).matchAll(/^FAIL\s+(\S+)/gm)].at(-1)?.[1];
    const name = m[1]!.trim() === 'Test suite failed to run' && file ? `${file}: Test suite failed to run` : m[1]!.trim();
    return { name, message: m[2]!.trim() };
  });
  return { counts: { passed: count(line, /(\d+) passed/), failed: count(line, /(\d+) failed/) }, failures: unique(failures), ...skipped(line) };
}

/** mocha's spec reporter: "3 passing (10ms)", "1 failing"; its failures as "1) suite" then the test's name, then the error. */
export function mochaCounts(text: string): Counts | null {
  if (/^Error: No test files found/m.test(text)) return NONE;
  const passing = /^\s*(\d+) passing \(\d/m.exec(text);
  if (!passing) return null;
  const failures: Failure[] = [];
  // The failures are listed after the summary: "1) suite", the test's name under it, then the error.
  const section = text.slice(passing.index);
  for (const m of section.matchAll(/^\s+\d+\) (.+?)(:?)\s*$\n((?:\s+\S.*:\s*$\n)*)\s+(\S.*)$/gm)) {
    const title = [m[1]!, ...m[3]!.split('\n').map((l) => l.trim().replace(/:$/, ''))].filter(Boolean).join(' ');
    if (!failures.some((f) => f.name === title)) failures.push({ name: title.replace(/:$/, ''), message: m[4]!.trim() });
  }
  const pending = count(text, /^\s*(\d+) pending/m);
  return { counts: { passed: Number(passing[1]), failed: count(text, /^\s*(\d+) failing/m) }, failures, ...(pending > 0 ? { skipped: pending } : {}) };
}

/**
 * jasmine's default reporter: a dot a spec, then "4 specs, 1 failure, 1 pending spec" ("No specs found"
 * when none ran); its failures as "1) full name" with the message under "Message:". It names no passing spec.
 */
export function jasmineCounts(text: string): Counts | null {
  const line = /^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?\s*$/m.exec(text);
  if (!line) return /^No specs found\s*$/m.test(text) ? NONE : null;
  const [specs, failed, pending] = [Number(line[1]), Number(line[2]), Number(line[3] ?? 0)];
  const section = text.slice(text.indexOf('\nFailures:\n') + 1 || text.length, text.indexOf('\nPending:\n') + 1 || line.index);
  const failures = [...section.matchAll(/^\d+\) (.+)\n\s+Message:\n\s+(\S.*)$/gm)].map((m) => ({ name: m[1]!.trim(), message: m[2]!.trim() }));
  return { counts: { passed: specs - failed - pending, failed }, failures, ...(pending > 0 ? { skipped: pending } : {}) };
}

/**
 * `go test` when no package had a test to run ("?   pkg [no test files]", "ok  pkg [no tests to run]"):
 * 0 of each. Otherwise null: the tests it lists are counted by test-cases/go-test.ts.
 */
export function goCounts(text: string): Counts | null {
  const packages = [...text.matchAll(/^(ok|FAIL|\?)\s+\S+\s+(.*)$/gm)];
  const none = packages.length > 0 && packages.every((m) => m[1] === '?' || /\[no tests to run\]/.test(m[2]!));
  return none && !/^\s*--- (PASS|FAIL|SKIP):/m.test(text) ? NONE : null;
}

/** `cargo test`: "test result: ok. 3 passed; 0 failed; …" for each test binary, summed; failures as "test x ... FAILED". */
export function cargoCounts(text: string): Counts | null {
  const results = [...text.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/gm)];
  if (results.length === 0) return null;
  const failures = [...text.matchAll(/^test (\S+) \.\.\. FAILED$/gm)].map((m) => ({ name: m[1]!, message: cargoMessage(text, m[1]!) }));
  const sum = (i: number) => results.reduce((total, m) => total + Number(m[i]), 0);
  const ignored = sum(3);
  return { counts: { passed: sum(1), failed: sum(2) }, failures, ...(ignored > 0 ? { skipped: ignored } : {}) };
}

function cargoMessage(text: string, name: string): string {
  const section = text.indexOf(`---- ${name} stdout ----`);
  if (section === -1) return '';
  return text
    .slice(section)
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '' && !/^note: /.test(l))
    .slice(0, 4)
    .join('\n');
}

function skipped(line: string): { skipped?: number } {
  const n = count(line, /(\d+) (?:skipped|pending|todo)/);
  return n > 0 ? { skipped: n } : {};
}

const unique = (failures: Failure[]): Failure[] => failures.filter((f, i) => failures.findIndex((g) => g.name === f.name) === i);
