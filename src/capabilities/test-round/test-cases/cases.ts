/** What every reader of a runner's printed form shares: a test case, and the list a run's cases are gathered in. */
import type { TestCase } from '../../../documents/index.ts';

export type { TestCase };
export type Outcome = TestCase['outcome'];

/** Reads one printed form: the cases it names, or null when the output is not in that form. */
export type CaseReader = (text: string) => TestCase[] | null;

/** The worse of two outcomes of one name (a test printed twice, a subtest that failed): failed, then passed, then skipped. */
const RANK: Record<Outcome, number> = { skipped: 0, passed: 1, failed: 2 };

/** The cases in the order first seen, each name once with its worst outcome. */
export function gathered(cases: Iterable<TestCase>): TestCase[] {
  const byName = new Map<string, TestCase>();
  for (const c of cases) {
    const seen = byName.get(c.name);
    if (!seen || RANK[c.outcome] > RANK[seen.outcome]) byName.set(c.name, seen ? { ...seen, outcome: c.outcome } : c);
  }
  return [...byName.values()];
}

/** A suite's path and a test's name as one name: "suite > inner > test". */
export const joined = (path: readonly string[], name: string): string => [...path, name].join(' > ');

/** Suites, kept by their depth: opening one at a depth closes those deeper. */
export class SuiteStack {
  private readonly names: string[] = [];
  open(depth: number, name: string): void {
    this.names.length = Math.max(0, depth);
    this.names[depth] = name;
  }
  /** The suites a line at this depth lies in. */
  at(depth: number): string[] {
    return this.names.slice(0, Math.max(0, depth)).filter((n) => n !== undefined);
  }
  /** Whether a suite of this name is open at this depth (its closing line, not a test). */
  isOpen(depth: number, name: string): boolean {
    return this.names[depth] === name;
  }
  close(depth: number): void {
    this.names.length = Math.max(0, depth);
  }
}
