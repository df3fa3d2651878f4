/**
 * The structured artifacts the company passes around. Each schema is both the validator of a model's
 * reply and, turned into JSON Schema, the format the model is asked for — declared once.
 * Optional facts are `.nullable()` rather than `.optional()`: OpenAI's strict structured output
 * requires every property to be present.
 */
import { z } from 'zod';
import { RelativePath } from '../ground/files/index.ts';
import { keywordPattern } from '../ground/text/index.ts';
import { SandboxReport } from '../host/sandbox/index.ts';
import { numberedTexts } from './numbered-list.ts';
import { TEST_LISTING_RULE, TestCase } from './test-citations.ts';

const text = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

/**
 * Mermaid text of one kind: it starts with its keyword. A pattern, not a refinement, so the rule travels
 * in the JSON Schema (to a server's structured output, into the local engine's grammar) and a reply
 * missing the keyword is mended before validation (align-to-schema.ts), not re-asked.
 */
const diagram = (keyword: string) => z.string().trim().regex(keywordPattern(keyword), `${keyword} must be mermaid text starting with "${keyword}"`);

// The run's own messages are the engine's; they are the company's language too.
export { Outcome, Requirement } from '../engine/board/index.ts';

export const Priority = z.enum(['P0', 'P1', 'P2']);

/** A question the PRD leaves open, and the assumption it makes for it meanwhile. */
export const OpenQuestion = z.object({ question: text('a question'), assumption: text('the assumption made for it') });

/** The PRD a model writes: every open question comes with its assumption. */
export const PRD = z.object({
  projectName: text('projectName'),
  summary: text('summary'),
  goals: z.array(text('a goal')).min(1),
  userStories: z.array(z.object({ asA: text('asA'), iWant: text('iWant'), soThat: text('soThat') })).min(1),
  requirementPool: z.array(z.object({ id: text('id'), description: text('description'), priority: Priority })).min(1),
  acceptanceCriteria: numberedTexts('AC', 'an acceptance criterion', 1),
  openQuestions: z.array(OpenQuestion),
});

/** What an open question of a PRD posted before they had assumptions (a plain string) reads as. */
export const UNRECORDED_ASSUMPTION = 'not recorded (a PRD written before open questions had assumptions)';

/** A verdict from a review step: a boolean decided by the schema, never by a substring of prose. */
export const Review = z.object({
  approved: z.boolean(),
  issues: z.array(text('an issue')),
});

/**
 * The issues a review left open: those of a review that did not approve — the last one before its SOP's
 * bound on revisions was reached, so nobody fixed them. They go on with the artifact (a posted PRD's
 * `review`, a file's), are shown to the next step and listed in the run's summary. Empty otherwise.
 */
export const openIssuesOf = (review: { approved: boolean; issues: readonly string[] } | null | undefined): string[] =>
  review && !review.approved ? [...review.issues] : [];

/**
 * The PRD as the board keeps it: with its last review (null: none ran, or a PRD from an older run), whose
 * issues are open when it did not approve; one posted by an older run may hold its open questions as plain strings.
 */
export const PostedPRD = PRD.extend({
  openQuestions: z.array(z.preprocess((value) => (typeof value === 'string' ? { question: value, assumption: UNRECORDED_ASSUMPTION } : value), OpenQuestion)),
  review: Review.nullable().default(null),
});
export type PostedPRD = z.infer<typeof PostedPRD>;

/**
 * The rule a reviewer's reply keeps, said once: the schema's description and its refusal are this text.
 * A review approves only with nothing left to change — notes on an approved draft reached no one.
 */
export const REVIEW_RULE = '`approved` is true only when `issues` is empty; list in `issues` only what must change, and then `approved` is false.';

/** What a review step asks a model for: a Review whose verdict and issues agree (REVIEW_RULE). */
export const ReviewVerdict = z
  .object({
    approved: z.boolean(),
    issues: z.array(text('an issue')).describe('each thing that must change, said so the writer can act on it; [] when approving'),
  })
  .superRefine((review, ctx) => {
    if (review.approved === review.issues.length > 0) ctx.addIssue({ code: 'custom', path: ['approved'], message: REVIEW_RULE });
  })
  .describe(REVIEW_RULE);

export const DesignFile = z.object({
  path: RelativePath,
  purpose: text('purpose'),
  /** Run directly (a bin script): committed with mode 100755. Optional so that older designs still parse (false). */
  executable: z.boolean().optional().describe('true for a file run directly as a program (a bin script): it is committed executable and starts with a #! line'),
});

/** A third-party package the project needs: installed by QA before the tests (docs/sandbox.md). */
export const Dependency = z.object({
  name: text('a dependency name'),
  /** A version range in the ecosystem's syntax: "^4.17.0" for npm, ">=2.31" for pip. */
  range: text('a version range'),
  kind: z.enum(['runtime', 'dev']),
});

export const Design = z.object({
  summary: text('summary'),
  approach: text('approach'),
  language: text('language'),
  /** The command that runs the project's tests from its root, as argv (no shell). */
  testCommand: z.array(text('a testCommand word')).min(1).describe(`The command that runs the tests from the project root, as argv; ${TEST_LISTING_RULE}`),
  /** How a user runs the program, as argv; null for a library. */
  runCommand: z.array(text('a runCommand word')).min(1).nullable(),
  /** The run command with a concrete input, which QA runs once the tests pass; null: the run command as is. */
  smokeCommand: z.array(text('a smokeCommand word')).min(1).nullable().optional(),
  /** Third-party dependencies, declared in the manifest the Engineer writes; null or [] for none. (Both new
   * fields are optional, not defaulted, so older designs still parse and no `default` reaches the JSON Schema.) */
  dependencies: z.array(Dependency).nullable().optional(),
  files: z
    .array(DesignFile)
    .min(1)
    .describe(
      "every file the Engineer writes, README.md included; not the tests, which QA writes where the language's runner finds them (a Go package's <file>_test.go beside its code)",
    ),
  classDiagram: diagram('classDiagram'),
  sequenceDiagram: diagram('sequenceDiagram'),
});

/** What every task says besides its file: what to write, and the files that must be written first. */
export const taskWork = {
  description: text('description'),
  dependsOn: z.array(RelativePath),
};

export const Task = z.object({
  file: RelativePath,
  ...taskWork,
  /** Which of the PRD's acceptance criteria the file serves, shown to its writer and its reviewer (absent from older task graphs). */
  criteria: z
    .array(z.number().int().min(1))
    .optional()
    .describe("the numbers n of the PRD's acceptance criteria AC-n this file's code helps meet (3 for AC-3); [] when it serves none directly"),
});

/** A task graph: one or more tasks (a new project's, or a change's). */
export const taskGraphOf = <T extends z.ZodType>(task: T) => z.object({ tasks: z.array(task).min(1) });

export const TaskGraph = taskGraphOf(Task);

export const CodeFile = z.object({
  path: RelativePath,
  content: z.string(),
});

/** One fast check of a draft before its model review: a checker's verdict, or the placeholders left in it. */
export const FastCheck = z.object({
  path: RelativePath,
  /** What ran ("node --check", "tsc --noEmit", "py_compile", "npm run lint", "completeness"). */
  checker: z.string(),
  passed: z.boolean(),
  problems: z.array(z.string()),
});

/** A draft's fast checks as a review verdict (a failure is revised before any model review), with every check it failed so far. */
export const FastCheckVerdict = z.object({
  approved: z.boolean(),
  issues: z.array(z.string()),
  checks: z.array(FastCheck),
});

/** A person of the company, as a commit names them. */
export const Person = z.object({ name: z.string().min(1), email: z.string().min(1) });

export const Code = CodeFile.extend({
  /** The last review verdict before it was committed (approved, or the issues left when the bound was hit). */
  review: Review.nullable(),
  /** Who wrote the file and who reviewed it (with `--engineers N`, two of the N); null on older runs. */
  author: Person.nullable().default(null),
  reviewer: Person.nullable().default(null),
  /** The file's fast checks: each one failed was a model review saved (null on older runs, or without a fastCheck step). */
  checks: FastCheckVerdict.nullable().default(null),
  /**
   * The placeholder lines (TODO, FIXME …) the file already had before this run edited it — a repository's
   * own, by their text: not counted against the run's completeness. Null for a file the run wrote whole.
   */
  inheritedPlaceholders: z.array(z.string()).nullable().default(null),
  /** Where each of a change's edits starts in the file (0-based lines): a long file is shown around them. Null for a file written whole. */
  changed: z.array(z.number().int().min(0)).nullable().default(null),
});

export const CodeComplete = z.object({
  files: z.array(RelativePath),
});

export const TestFiles = z.object({
  files: z.array(CodeFile).min(1),
});

export const TestFailure = z.object({
  name: text('name'),
  message: z.string(),
});

export const TestReport = z.object({
  round: z.number().int().min(1),
  command: z.array(z.string()).min(1),
  passed: z.boolean(),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  counts: z.object({ passed: z.number().int(), failed: z.number().int() }).nullable(),
  failures: z.array(TestFailure),
  /** Identifies the failure independent of timings, so the same failure twice is recognised. */
  signature: z.string(),
  /** The tail of the runner's output (not committed: it carries timings). */
  output: z.string(),
  /** How the tests ran: sandbox mode, limits, limits hit, violations seen, gaps (null in reports from before the sandbox). */
  sandbox: SandboxReport.nullable().default(null),
  /**
   * The tests the runner's output named: how many, and those whose name cites a criterion (AC-3), as the
   * coverage matrix reads them (test-citations.ts). Absent from rounds that ran no tests and older reports.
   */
  cases: z.object({ named: z.number().int().min(0), citing: z.array(TestCase) }).optional(),
  /** What the round ran (absent: the tests): the tests, the dependency install before them, the repository's build that failed before them, or the program on its smoke input. */
  kind: z.enum(['tests', 'install', 'build', 'smoke']).optional(),
  /**
   * The repository's own build, run before the tests in the same sandbox (a change's design `buildCommand`:
   * src/capabilities/test-round/build-first.ts): its command, exit code and the tail of its output. Absent when none ran.
   */
  build: z
    .object({ command: z.array(z.string()).min(1), passed: z.boolean(), exitCode: z.number().int().nullable(), timedOut: z.boolean(), output: z.string() })
    .optional(),
  /**
   * A change run's round compared with the tests on its base (src/capabilities/change/compare-with-base.ts): whether
   * anything failed that did not fail before, how that was decided, and the lines that decided it. Absent elsewhere.
   */
  vsBase: z
    .object({
      newFailures: z.boolean(),
      by: z.enum(['tests', 'signature', 'passed', 'no-base']),
      failingBefore: z.array(z.string()),
      failingNow: z.array(z.string()),
      lines: z.array(z.string()),
      /**
       * Tests seen both passing and failing on the same code (a new failure that passed when run again,
       * or failed when the base's tests ran again: change/flaky-tests.ts), not blamed on the change.
       */
      flaky: z.array(z.object({ name: z.string(), evidence: z.string() })).default([]),
    })
    .optional(),
});

/** The dependency install before a test round: what ran, and the lockfile it produced (committed). */
export const DependencyInstall = TestReport.extend({
  ecosystem: z.enum(['npm', 'python']).nullable(),
  /** The lockfile when it changed since the last install (committed with this message); null otherwise. */
  lockfile: CodeFile.nullable(),
  /** Packages that declare install scripts which the policy kept from running. */
  scriptsSkipped: z.array(z.string()).default([]),
});

export const BugReport = z.object({
  summary: text('summary'),
  failingTests: z.array(text('a failing test')),
  files: z.array(z.object({ path: RelativePath, problem: text('problem') })).min(1),
});

/**
 * QA's reading of a change's failed round: the source files that must change (sent to the Engineer as a
 * BugReport), and the tests of its own that are wrong — their expectation cannot hold while the code does
 * what the criteria say — which QA rewrites itself, first. At least one of the two.
 */
/** The rule a triage keeps, said once: the schema's description and its refusal are this text. */
export const TRIAGE_RULE = 'name at least one file: a source file to change in `files`, or a test file of yours to rewrite in `ownTests`';

export const TestTriage = z
  .object({
    summary: text('summary'),
    failingTests: z.array(text('a failing test')),
    files: z
      .array(z.object({ path: RelativePath, problem: text('problem') }))
      .describe('the source files that must change, each with what is wrong in it; [] when only your own tests are wrong'),
    ownTests: z
      .array(z.object({ path: RelativePath, problem: text('problem') }))
      .describe(
        'the test files you wrote for this change that are wrong (their expectation cannot hold while the code does what the criteria say), each with what is wrong in it; [] when the code is wrong',
      ),
  })
  .superRefine((triage, ctx) => {
    if (triage.files.length + triage.ownTests.length === 0) ctx.addIssue({ code: 'custom', path: ['files'], message: TRIAGE_RULE });
  })
  .describe(TRIAGE_RULE);
export type TestTriage = z.infer<typeof TestTriage>;

/** A document a role writes at a path of its choosing (a user guide, a changelog): committed as is. */
export const Document = z.object({
  path: RelativePath,
  content: z.string(),
});

/** A person's decision on an artifact a role held back for approval (`--approve`). */
export const Approval = z.object({
  role: text('role'),
  gate: z.enum(['prd', 'design', 'code', 'tests']),
  key: z.string().nullable(),
  /** The n-th decision asked for this role, gate and key (0-based): a rejected artifact comes back. */
  round: z.number().int().min(0),
  approved: z.boolean(),
  feedback: z.string().nullable(),
});
export type Approval = z.infer<typeof Approval>;

/** The most questions a Product Manager may ask before the PRD (`--clarify`); a step may ask for fewer. */
export const MAX_CLARIFYING_QUESTIONS = 5;

/** One question for the person, and what its answer decides (null when it goes without saying). */
export const ClarifyingQuestion = z.object({
  question: text('a question').max(500),
  why: z.string().trim().max(500).nullable(),
});
/** The questions a role asks the person before it writes (`clarify`): none when the spec is clear already. */
export const ClarifyingQuestions = z.object({ questions: z.array(ClarifyingQuestion).max(MAX_CLARIFYING_QUESTIONS) });

/** The person's answers to a role's questions; an empty answer means "no preference". */
export const Answers = z.object({
  role: text('role'),
  /** The n-th round of questions of this role (0-based): a step re-run after a resume finds its answers. */
  round: z.number().int().min(0),
  answers: z
    .array(z.object({ question: text('a question'), why: z.string().nullable().default(null), answer: z.string().trim().max(4000) }))
    .min(1)
    .max(MAX_CLARIFYING_QUESTIONS),
});
export type ClarifyingQuestion = z.infer<typeof ClarifyingQuestion>;
export type ClarifyingQuestions = z.infer<typeof ClarifyingQuestions>;
export type Answers = z.infer<typeof Answers>;

export type PRD = z.infer<typeof PRD>;
export type OpenQuestion = z.infer<typeof OpenQuestion>;
export type Review = z.infer<typeof Review>;
/** As written (the fields added since the first version may be absent from older boards and scenarios). */
export type Design = z.input<typeof Design>;
export type Task = z.infer<typeof Task>;
export type TaskGraph = z.infer<typeof TaskGraph>;
export type CodeFile = z.infer<typeof CodeFile>;
export type Code = z.infer<typeof Code>;
export type CodeComplete = z.infer<typeof CodeComplete>;
export type TestFiles = z.infer<typeof TestFiles>;
export type TestReport = z.infer<typeof TestReport>;
export type BugReport = z.infer<typeof BugReport>;
export type Document = z.infer<typeof Document>;
export type Dependency = z.infer<typeof Dependency>;
export type FastCheck = z.infer<typeof FastCheck>;
export type FastCheckVerdict = z.infer<typeof FastCheckVerdict>;
export type DependencyInstall = z.infer<typeof DependencyInstall>;
