/**
 * The coverage matrix as the workbench shows it: the last round's criteria, each with the tests that cite
 * it — the test file that holds each (so the page can link to it) and the lines of the runner's output
 * that name it — and the test round it was read from. Built from the board alone, like the matrix itself.
 */
import { Coverage, type CriterionStatus, describeCoverage, type ManualCheckState, type TestFiles, type TestReport } from '../../documents/index.ts';
import type { Message } from '../../engine/board/index.ts';

export interface CoverageTestView {
  /** The test's name as the runner printed it. */
  name: string;
  outcome: 'passed' | 'failed' | 'skipped';
  /** The test file that holds it, as QA last wrote it; null when no file of the run's tests names it. */
  file: string | null;
  /** The lines of the round's runner output that name it (its verdict, and a failure's lines where they name it). */
  output: string[];
}

export interface CriterionView {
  id: string;
  text: string;
  priority: 'P0' | 'P1' | 'P2';
  status: CriterionStatus;
  tests: CoverageTestView[];
  /** Its manual check — why no test can prove it, the files read, the review's verdict — or null. */
  manual: ManualCheckState | null;
}

export interface CoverageView {
  /** The Coverage message, and the test round (its TestReport) it was read from. */
  messageId: string;
  round: number;
  roundMessageId: string | null;
  /** "3 of 5 criteria proven (P0: …; unmet: …)". */
  summary: string;
  criteria: CriterionView[];
  strayCitations: Coverage['strayCitations'];
}

/** The lines of a runner's output naming a test, at most a few: its verdict line, and a failure's where it repeats the name. */
const MAX_LINES = 6;

/**
 * How a test file spells a runner's name, most specific first: the whole name, its leaf after a suite
 * (" > ", "::"), and an identifier that starts it (unittest's `test_x (module.Class.test_x)`, Go's `TestX`).
 */
function spellings(name: string): string[] {
  const leaf = name.split(/ > |::/).at(-1)!;
  const identifier = /^[A-Za-z_]\w{3,}/.exec(leaf)?.[0];
  return [...new Set([name, leaf, ...(identifier ? [identifier] : [])])];
}

/** The lines of the output naming the test: by its name as printed, or its leaf. */
const namedIn = (lines: readonly string[], name: string): string[] => {
  const leaf = name.split(/ > |::/).at(-1)!;
  return lines.filter((line) => line.includes(name) || line.includes(leaf)).slice(0, MAX_LINES);
};

/** Every test file the run's QA wrote, the last version of each. */
function testFilesOf(messages: readonly Message[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const m of messages) if (m.type === 'Tests') for (const f of (m.payload as TestFiles).files) files.set(f.path, f.content);
  return files;
}

export function coverageViewOf(messages: readonly Message[]): CoverageView | null {
  const message = messages.findLast((m) => m.type === 'Coverage');
  const parsed = message ? Coverage.safeParse(message.payload) : null;
  if (!message || !parsed?.success) return null;
  const coverage = parsed.data;
  const round = messages.findLast(
    (m): m is Message<TestReport> =>
      m.type === 'TestReport' &&
      m.seq < message.seq &&
      ((m.payload as TestReport).kind ?? 'tests') === 'tests' &&
      (m.payload as TestReport).round === coverage.round,
  );
  const lines = (round?.payload.output ?? '').split('\n');
  const files = testFilesOf(messages);
  const fileOf = (name: string): string | null => {
    for (const spelled of spellings(name)) {
      const found = [...files].find(([path, content]) => name.startsWith(`${path}::`) || content.includes(spelled));
      if (found) return found[0];
    }
    return null;
  };
  return {
    messageId: message.id,
    round: coverage.round,
    roundMessageId: round?.id ?? null,
    summary: describeCoverage(coverage),
    criteria: coverage.criteria.map((c) => ({
      ...c,
      tests: c.tests.map((t) => ({
        ...t,
        file: fileOf(t.name),
        output: namedIn(lines, t.name),
      })),
    })),
    strayCitations: coverage.strayCitations,
  };
}
