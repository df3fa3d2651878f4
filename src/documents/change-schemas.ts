/**
 * The documents of a change run (sopworks change): the map of the repository as it was at the base,
 * the Product Manager's change request, the Architect's design delta and change task graph, the files
 * a step asked to read, and the tests as they ran on the base. Optional facts are `.nullable()` (strict
 * structured output needs every property present).
 */
import { z } from 'zod';
import { RelativePath } from '../ground/files/index.ts';
import { numberedTexts } from './numbered-list.ts';
import { Design, TestReport, taskGraphOf, taskWork } from './schemas.ts';

/** When a change's design names a build (said in the schema, and in write_design_delta's prompt). */
export const BUILD_RULE =
  'null unless the tests import what a build writes (a package entry point the map lists as not in the repository, a `dist/` or `lib/` file): then one of the build steps the map lists, such as `npm run build` — not needed when the test command builds itself (`npm test` runs a `pretest` script)';

const text = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

/** The repository as the company sees it: bounded, never its whole content (repository-map.ts). */
export const RepositoryMap = z.object({
  /** The commit the change starts from, and the branch it is made on. */
  base: z.string().min(1),
  branch: z.string().min(1),
  /** Where the change's documents go, e.g. docs/changes/1-add-json-flag. */
  changeDir: RelativePath,
  fileCount: z.number().int().min(0),
  /** The file tree, one path a line (directories summarised when there are too many files). */
  tree: z.string(),
  manifests: z.array(z.object({ path: z.string(), content: z.string() })),
  readmes: z.array(z.object({ path: z.string(), content: z.string() })),
  /** The signatures of the files that matter most to the request, best first, within a token budget (repository-map.ts). */
  interfaces: z.array(z.object({ path: z.string(), interface: z.string() })),
  /** Whether a test file was seen, and the source files with definitions whose signatures are not shown. */
  hasTests: z.boolean(),
  omitted: z.number().int().min(0),
  /**
   * The repository's test files (how many, and a few of them: where new ones go and how they are
   * named), and the commands its files say run them, each with where it was read (map/test-commands.ts).
   */
  tests: z
    .object({
      files: z.number().int().min(0),
      commands: z.array(z.object({ argv: z.array(z.string()).min(1), source: z.string() })),
      examples: z.array(z.string()).default([]),
      /** The build steps it declares (map/build-commands.ts), which the design's `buildCommand` may name; absent from older maps. */
      builds: z.array(z.object({ argv: z.array(z.string()).min(1), source: z.string() })).default([]),
      /** Its packages' entry points that name a file it does not hold (`packages/git/package.json main: dist/x.js`): a build writes them. */
      unbuilt: z.array(z.string()).default([]),
      /** Source files counted above that carry their own tests inside (Rust's `mod tests`): changed as sources, never a test file to avoid. */
      inline: z.array(z.string()).default([]),
    })
    .default({ files: 0, commands: [], examples: [], builds: [], unbuilt: [], inline: [] }),
  /** Tokens the signatures take. */
  signatureTokens: z.number().int().min(0).default(0),
});

export const ChangeRequest = z.object({
  title: text('title'),
  summary: text('summary'),
  changes: z.array(text('a change')).min(1),
  acceptanceCriteria: numberedTexts('AC', 'an acceptance criterion', 1),
  mustKeepWorking: numberedTexts('KW', 'a behaviour that must keep working'),
  outOfScope: z.array(text('an out-of-scope item')),
});

/** Which files a step wants to read, and why (the `read` step loads them, bounded). */
export const ReadRequest = z.object({
  files: z
    .array(
      z.object({
        path: RelativePath,
        why: text('why'),
        // Optional, not defaulted, so that a request written before it still parses (schemas.ts, "Optional facts").
        focus: z
          .array(text('a focus name'))
          .max(8)
          .nullable()
          .optional()
          .describe(
            'the functions, classes or methods of this file the change is about (`Path`, `Command.parseAsync`): a file too long to show whole is shown around their definitions, with its start and end; null to read it from its start',
          ),
      }),
    )
    .min(1),
});

/** What a `read` step hands over: the files it read, and those it refused with the reason. */
export const ReadFiles = z.object({
  files: z.array(z.object({ path: z.string(), content: z.string() })),
  refused: z.array(z.object({ path: z.string(), reason: z.string() })),
});

/**
 * The repository's existing tests nearest to a change (the `nearestTests` step), shown to its QA so new
 * tests follow the repository's conventions: each file's path, why it was chosen, the helpers and fixtures
 * it imports, and its content at the base (in part past the budget, saying what is not shown); and the
 * small helpers whole.
 */
export const ExistingTests = z.object({
  files: z.array(z.object({ path: z.string(), why: z.string(), helpers: z.array(z.string()), content: z.string() })),
  /**
   * The helpers they import, once each: whole when small, else their interface (`whole: false`: what they
   * define, bodies left out) when that is small; absent in runs saved before.
   */
  helpers: z.array(z.object({ path: z.string(), content: z.string(), whole: z.boolean().default(true) })).optional(),
});
export type ExistingTests = z.infer<typeof ExistingTests>;

/**
 * The design delta: the Design's own fields for what the repository becomes (its test command is the
 * one QA runs, on the base and on the branch), plus what stays as it is.
 */
export const DesignDelta = Design.extend({
  unchanged: z.array(text('something that stays as it is')),
  /**
   * The repository's own command that builds what its tests import (`npm run build`), run by QA in the
   * tests' sandbox before the tests on the base and before every test round; null when the tests run on
   * the sources as they are. Optional, not defaulted, so older designs still parse (none).
   */
  buildCommand: z
    .array(text('a buildCommand word'))
    .min(1)
    .nullable()
    .optional()
    .describe(`The repository's own build command, as argv, run before the tests; ${BUILD_RULE}`),
});

export const ChangeOp = z.enum(['modify', 'add', 'delete', 'rename']);

export const ChangeTask = z.object({
  /** The file the task leaves behind (for a rename, its new path). */
  file: RelativePath,
  op: ChangeOp,
  /** A rename's old path; null otherwise. */
  from: RelativePath.nullable(),
  ...taskWork,
  /** Which of the change request's acceptance criteria the file serves, shown to its editor and its reviewer (absent from older task graphs). */
  criteria: z
    .array(z.number().int().min(1))
    .optional()
    .describe("the numbers n of the change request's acceptance criteria AC-n this file's change helps meet (3 for AC-3); [] when it serves none directly"),
});

export const ChangeTaskGraph = taskGraphOf(ChangeTask);

/**
 * A file a task deletes, or moves: one commit removes `path` and, for a rename, adds `renamedTo` with
 * `content` (the file as the Engineer left it at its new path).
 */
export const Removal = z.object({
  path: RelativePath,
  renamedTo: RelativePath.nullable(),
  content: z.string().nullable(),
});

/** The repository's tests as they ran on the base, before any change: what was failing already. */
export const BaselineTests = TestReport.extend({
  /** False when the repository has no tests to run (QA writes the first ones). */
  ran: z.boolean(),
  /**
   * Whether the test command got as far as running tests, and if not the line that says why (`sh: 1: mocha:
   * not found`, a failed install): then no code is written (src/capabilities/test-round/runner-start.ts).
   * Started with a line: what the tests ran without (an install that failed, yet some tests passed).
   */
  runner: z.object({ started: z.boolean(), line: z.string().nullable() }).default({ started: true, line: null }),
});

export type RepositoryMap = z.infer<typeof RepositoryMap>;
export type ChangeRequest = z.infer<typeof ChangeRequest>;
export type ReadRequest = z.infer<typeof ReadRequest>;
export type ReadFiles = z.infer<typeof ReadFiles>;
export type DesignDelta = z.infer<typeof DesignDelta>;
export type ChangeTask = z.infer<typeof ChangeTask>;
export type ChangeTaskGraph = z.infer<typeof ChangeTaskGraph>;
export type Removal = z.infer<typeof Removal>;
export type BaselineTests = z.infer<typeof BaselineTests>;
