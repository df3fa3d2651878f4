/**
 * A run's figures in the terms ChatDev and MetaGPT report them, read from the board alone (so the
 * summary, run.json and the review report agree, and a resumed run counts the same):
 * - completeness: the share of committed source files with no placeholder left (no TODO,
 *   NotImplementedError, body-less function);
 * - executability: whether the program ran on its smoke input (null when there was nothing to run);
 * - tests: the last test round's counts and pass rate;
 * - fast checks: the checks drafts failed before review — each one a model review saved;
 * - criteria: how many of the acceptance criteria the last coverage matrix proves, P0 apart, and which
 *   P0 criteria it does not (null before any matrix);
 * - open issues: what the last review of the PRD or of a file left open when its SOP's bound on
 *   revisions was reached — work that went on with known problems, said to the person.
 * Pure.
 */
import { z } from 'zod';
import {
  Code,
  Coverage,
  CriterionStatus,
  coverageSummary,
  describeManual,
  isSourceFile,
  openIssuesOf,
  type Placeholder,
  PostedPRD,
  placeholdersIn,
  TestReport,
} from '../../documents/index.ts';
import type { Message } from '../../engine/board/index.ts';

export const RunFigures = z.object({
  completeness: z.object({
    complete: z.number().int(),
    files: z.number().int(),
    /** complete / files; null when no source file was committed. */
    ratio: z.number().nullable(),
    incomplete: z.array(z.object({ path: z.string(), line: z.number().int(), why: z.string() })),
  }),
  executability: z.object({
    /** null: the design gives no command that runs as written (a library), or the program was not run yet. */
    passed: z.boolean().nullable(),
    command: z.array(z.string()).nullable(),
  }),
  tests: z.object({
    rounds: z.number().int(),
    passed: z.number().int().nullable(),
    failed: z.number().int().nullable(),
    passRate: z.number().nullable(),
  }),
  fastChecks: z.object({
    /** Fast-check failures sent back before review: model reviews saved. */
    reviewsSaved: z.number().int(),
    byChecker: z.record(z.string(), z.number().int()),
  }),
  /** The last coverage matrix's tally (absent from figures recorded before criteria were traced). */
  criteria: z
    .object({
      proven: z.number().int(),
      total: z.number().int(),
      p0Proven: z.number().int(),
      p0Total: z.number().int(),
      unmet: z.array(z.object({ id: z.string(), status: CriterionStatus })),
      /** The criteria checked by a review's reading instead of a test, and its verdict (absent from older figures). */
      manual: z
        .array(z.object({ id: z.string(), verdict: z.enum(['accepted', 'rejected', 'testable', 'awaiting']), reason: z.string().nullable() }))
        .optional(),
    })
    .nullable()
    .optional(),
  /** The issues each artifact's last review left open, by artifact (PRD, or a file's path); absent from older figures. */
  openIssues: z.array(z.object({ artifact: z.string(), issues: z.array(z.string()) })).optional(),
});
export type RunFigures = z.infer<typeof RunFigures>;

export function runFigures(messages: readonly Message[]): RunFigures {
  const finalCode = new Map<string, Code>();
  const byChecker: Record<string, number> = {};
  let reviewsSaved = 0;
  for (const message of messages) {
    if (message.type !== 'Code') continue;
    const code = Code.safeParse(message.payload);
    if (!code.success) continue;
    finalCode.set(code.data.path, code.data);
    for (const check of code.data.checks?.checks ?? []) {
      if (check.passed) continue;
      reviewsSaved++;
      byChecker[check.checker] = (byChecker[check.checker] ?? 0) + 1;
    }
  }
  const sources = [...finalCode.values()].filter((code) => isSourceFile(code.path));
  const incomplete = sources.flatMap((code) => addedPlaceholders(code).map((p) => ({ path: code.path, line: p.line, why: p.why })));
  const complete = sources.filter((code) => !incomplete.some((p) => p.path === code.path)).length;

  const reports = messages
    .filter((m) => m.type === 'TestReport')
    .map((m) => TestReport.safeParse(m.payload))
    .flatMap((r) => (r.success ? [r.data] : []));
  const testRounds = reports.filter((r) => (r.kind ?? 'tests') === 'tests');
  const lastTests = testRounds.at(-1);
  const smoke = reports.filter((r) => r.kind === 'smoke').at(-1);
  const counts = lastTests?.counts ?? null;
  const total = counts ? counts.passed + counts.failed : 0;
  const coverage = messages
    .filter((m) => m.type === 'Coverage')
    .map((m) => Coverage.safeParse(m.payload))
    .findLast((c) => c.success)?.data;
  return {
    completeness: { complete, files: sources.length, ratio: sources.length > 0 ? complete / sources.length : null, incomplete },
    executability: { passed: smoke ? smoke.passed : null, command: smoke?.command ?? null },
    tests: { rounds: testRounds.length, passed: counts?.passed ?? null, failed: counts?.failed ?? null, passRate: total > 0 ? counts!.passed / total : null },
    fastChecks: { reviewsSaved, byChecker },
    criteria: coverage ? coverageSummary(coverage) : null,
    openIssues: openIssues(messages, [...finalCode.values()]),
  };
}

/** The latest PRD's open review issues, then each file's (its final version), where there are any. */
function openIssues(messages: readonly Message[], codes: readonly Code[]): NonNullable<RunFigures['openIssues']> {
  const prd = messages.findLast((m) => m.type === 'PRD');
  const parsed = prd ? PostedPRD.safeParse(prd.payload) : null;
  const found = [
    { artifact: 'PRD', issues: parsed?.success ? openIssuesOf(parsed.data.review) : [] },
    ...codes.map((code) => ({ artifact: code.path, issues: openIssuesOf(code.review) })),
  ];
  return found.filter((entry) => entry.issues.length > 0);
}

/** The placeholders a file has that it did not have before the run edited it (each inherited line's text once). */
function addedPlaceholders(code: Code): Placeholder[] {
  const inherited = [...(code.inheritedPlaceholders ?? [])];
  return placeholdersIn(code.path, code.content).filter((p) => {
    const at = inherited.indexOf(p.text);
    if (at === -1) return true;
    inherited.splice(at, 1);
    return false;
  });
}

/** The figures on one line each, for the summary and the review report. */
export function describeFigures(figures: RunFigures): { name: string; value: string }[] {
  const percent = (ratio: number | null) => (ratio === null ? 'n/a' : `${Math.round(ratio * 100)}%`);
  const { completeness, executability, tests, fastChecks, criteria, openIssues = [] } = figures;
  const checkers = Object.entries(fastChecks.byChecker)
    .map(([checker, n]) => `${checker} ${n}`)
    .join(', ');
  return [
    {
      name: 'Completeness',
      value: `${percent(completeness.ratio)} (${completeness.complete} of ${completeness.files} source files without placeholders${
        completeness.incomplete.length > 0 ? `; left: ${completeness.incomplete.map((p) => `${p.path}:${p.line} ${p.why}`).join('; ')}` : ''
      })`,
    },
    {
      name: 'Executability',
      value:
        executability.passed === null
          ? 'not checked (no command to run it as written, or the run stopped before)'
          : `${executability.passed ? 'runs' : 'FAILS'}: ${executability.command!.join(' ')}`,
    },
    {
      name: 'Test pass rate',
      value:
        tests.passRate === null
          ? 'no tests run'
          : `${percent(tests.passRate)} (${tests.passed} passed, ${tests.failed} failed, ${tests.rounds} round${tests.rounds === 1 ? '' : 's'})`,
    },
    {
      name: 'Criteria',
      value: criteria
        ? `${criteria.proven} of ${criteria.total} proven (P0: ${criteria.p0Proven} of ${criteria.p0Total}${
            criteria.unmet.length > 0 ? `; unmet: ${criteria.unmet.map((u) => `${u.id} ${u.status}`).join(', ')}` : ''
          }${describeManual(criteria.manual)})`
        : 'n/a (no coverage matrix yet)',
    },
    {
      name: 'Fast checks',
      value: `${fastChecks.reviewsSaved} failure${fastChecks.reviewsSaved === 1 ? '' : 's'} caught before review (model reviews saved)${checkers ? `: ${checkers}` : ''}`,
    },
    ...(openIssues.length > 0 ? [{ name: 'Open issues', value: describeOpenIssues(openIssues) }] : []),
  ];
}

/** "2 left by a last review, its revisions spent (PRD 1, src/cli.py 1): PRD: "…"; src/cli.py: "…"" — the counts first, for a narrow terminal. */
function describeOpenIssues(open: NonNullable<RunFigures['openIssues']>): string {
  const total = open.reduce((n, entry) => n + entry.issues.length, 0);
  const counts = open.map((entry) => `${entry.artifact} ${entry.issues.length}`).join(', ');
  const texts = open.map((entry) => `${entry.artifact}: ${entry.issues.map((issue) => `"${issue}"`).join(', ')}`).join('; ');
  return `${total} left by a last review, its revisions spent (${counts}): ${texts}`;
}
