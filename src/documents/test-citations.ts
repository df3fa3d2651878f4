/**
 * How a test says which acceptance criterion it proves: the criterion's id in its name or title, as the
 * runner prints it — `AC-3: malformed CSV exits 1` (a title), `test_ac3_malformed_csv` (Python),
 * `TestAC3MalformedCSV` (Go), `TestCLI/AC-3_malformed` (a subtest). Pure; read by the test round (which
 * keeps the cases that cite one) and by the coverage matrix.
 */
import { z } from 'zod';

/** A criterion's id: AC-n for an acceptance criterion, KW-n for what a change must keep working. */
export const CRITERION_ID = /^(?:AC|KW)-[1-9]\d*$/;
export const CriterionId = z.string().regex(CRITERION_ID, 'a criterion id is AC-<n> or KW-<n>, e.g. AC-3');

/**
 * What a test command must do for its tests to prove criteria: name each test in its output. Said in the
 * Design's schema (the Architect's prompt shows it) and in a coverage matrix whose runner named none.
 */
export const TEST_LISTING_RULE =
  'the test command must name each test in its output, so the tests proving each acceptance criterion can be read from it: `go test -v ./...`, `pytest -v`, `python3 -m unittest -v`, `jest --verbose`, `vitest run --reporter=verbose` (node --test, mocha, tape, ava and cargo test name them already; uvu names only its suites, so the id goes in the name of a suite)';

/** One test as the runner reported it: its full name (suites joined by " > ") and how it ended. */
export const TestCase = z.object({
  name: z.string().min(1),
  outcome: z.enum(['passed', 'failed', 'skipped']),
});
export type TestCase = z.infer<typeof TestCase>;

/**
 * An id as written in a name: AC or KW, an optional - or _, the number. Upper case may follow a lower-case
 * letter (Go's `TestAC3`); lower case only a non-letter (`test_ac3`), so `mac3` or `back2` cite nothing.
 */
const CITATION = /(?<![A-Z0-9])(AC|KW)[-_]?0*([1-9]\d*)(?!\d)|(?<![A-Za-z0-9])(ac|kw)[-_]?0*([1-9]\d*)(?!\d)/g;

/** The criterion ids a test's name cites, normalised (AC-3), in the order written, each once. */
export function citedCriteria(name: string): string[] {
  const ids = [...name.matchAll(CITATION)].map((m) => `${(m[1] ?? m[3]!).toUpperCase()}-${m[2] ?? m[4]}`);
  return [...new Set(ids)];
}
