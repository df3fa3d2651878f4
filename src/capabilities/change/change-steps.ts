/**
 * The steps of a change run (sopworks change): map the repository, read the files a role names, edit an
 * existing file with search/replace blocks, run the tests on the base first — and the actions, guards
 * and views that go with them. Registered beside the others in ./index.ts.
 */
import { assign, fromPromise } from 'xstate';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import type { Code, Requirement, TestReport } from '../artifacts/schemas.ts';
import { topologicalOrder } from '../artifacts/task-graph.ts';
import * as C from './change-schemas.ts';
import { mapRepository } from './repository-map.ts';
import { readRequestedFiles } from './read-files.ts';
import { applyEdits } from './apply-edits.ts';
import { unifiedDiff } from './render-diff.ts';
import { runBaseTests, type InstallFacts } from '../test-round/base-tests.ts';
import { compareWithBase } from './compare-with-base.ts';
import { ownRecordLine } from '../../engine/board/own-record-line.ts';
import type { EditsReply } from '../model/parse/edits-reply.ts';
import { git } from '../../host/git/git-process.ts';
import { commandRefusal } from '../policy/may-run.ts';
import { writeRefusals } from '../policy/may-write.ts';
import type { RoleContext } from '../../engine/sop/role-context.ts';
import { askCounter, countOf } from '../../engine/effect-identity.ts';
import { resolveView } from '../artifacts/views.ts';
import type { RoleServices } from '../../engine/sop/services.ts';
import type { VocabularyEntry } from '../../engine/steps/actions.ts';
import { currentChangeTask } from './change-views.ts';
import { originalContent } from './original-content.ts';
import { changeTaskProblems } from './check-change-tasks.ts';

interface StepInput<P> {
  params: P;
  context: RoleContext;
}

export const changeActorParams = {
  mapRepository: {
    description:
      'Map the repository of a change run as it is at the base: every path (the tree, compressed), manifests, README, how its tests run, and ' +
      "the signatures of the files that matter most to the request — parsed with tree-sitter, ranked by PageRank personalised by the request's " +
      'words — within `tokens` tokens (src/capabilities/change/repository-map.ts); never whole files. The output is a RepositoryMap (publish it for the others).',
    params: z.object({ tokens: z.number().int().min(256).max(32_000).default(1536) }).strict(),
  },
  read: {
    description:
      'Read the files a ReadRequest in a slot (`from`) names, from the work tree: at most `maxFiles`, each at most `maxChars` characters. ' +
      'Missing, binary, huge or unsafe files are refused with the reason. The output is `files` (path, content) and `refused` (path, reason).',
    params: z
      .object({
        from: z.string().min(1),
        maxFiles: z.number().int().min(1).max(40).default(8),
        maxChars: z.number().int().min(100).max(200_000).default(24_000),
      })
      .strict(),
  },
  edit: {
    description:
      'Ask the model to change the current file: render roles/<role>/<action>.hbs with the listed views and `original` (the file as this work ' +
      'found it: the slot `onto` if kept, else its last Code before the message being worked on, else the file at the base; empty for a new ' +
      'file — the same on resume as in the first run), and apply the reply — SEARCH/REPLACE blocks, ' +
      'or a small file whole. A block whose SEARCH text is not found, or found more than once, is re-asked with the reason and the lines ' +
      'around the nearest match (bounded like any invalid reply); nothing is ever applied in part. The output is `path`, `content`, `before` and `diff`.',
    params: z
      .object({
        action: z.string().regex(/^[a-z][a-z0-9_]*$/, 'use lower-case letters, digits and underscores'),
        key: z.literal('current').default('current'),
        with: z.array(z.string().min(1)).default([]),
        by: z.enum(['writer', 'reviewer']).default('writer'),
        onto: z.string().min(1).nullable().default(null),
      })
      .strict(),
  },
  checkChangeTasks: {
    description:
      'Check the change task graph in the slot `tasks` (default changeTasks) against the work tree and the policy: one task per file, known ' +
      'dependencies, no cycle; a file to modify exists and is text of a size that can be edited, a file to add does not exist yet; the ' +
      '`writer` role may write every file and the `tester` may run the test command of `design`. Fails with the problems found.',
    params: z
      .object({
        tasks: z.string().min(1).default('changeTasks'),
        design: z.string().min(1).default('designDelta'),
        writer: z.string().min(1).default('engineer'),
        tester: z.string().min(1).default('qa'),
      })
      .strict(),
  },
  runBaseTests: {
    description:
      "Run the repository's existing tests on the base, before any code is written — the design delta's test command, in the sandbox, in the " +
      'work tree (with what an installDependencies step kept in the slot `install` put there) — so failures that were there already are known ' +
      'and not blamed on the change. A repository without tests is said so (`ran: false`); a runner that could not start (not installed, a failed ' +
      'install) is said with the line that explains it (`runner.started: false`).',
    params: z
      .object({
        timeoutMs: z.number().int().min(1000).default(120_000),
        design: z.string().min(1).default('designDelta'),
        install: z.string().min(1).nullable().default(null),
      })
      .strict(),
  },
  compareWithBase: {
    description:
      'Compare the test report in a slot (default testReport) with the tests on the base (BaselineTests): per test where both name their ' +
      "failing tests, by the failure's signature otherwise. The output is the report with `vsBase` — whether anything failed that did not " +
      'fail before, and the lines that decided it, quoted in the committed report.',
    params: z.object({ slot: z.string().min(1).default('testReport') }).strict(),
  },
} satisfies Record<string, VocabularyEntry>;

export const changeActionParams = {
  queueChangeTasks: {
    description: 'Queue every file of the latest ChangeTaskGraph, in dependency order.',
    params: z.object({}).strict(),
  },
} satisfies Record<string, VocabularyEntry>;

export const changeGuardParams = {
  taskOp: {
    description: "The current file's change task is of this kind (modify, add, delete, rename).",
    params: z.object({ op: C.ChangeOp }).strict(),
  },
  noNewFailures: {
    description:
      'The test report in a slot (default testReport) passed, or its comparison with the base (a compareWithBase step) found nothing that did ' +
      'not fail before: nothing the change broke.',
    params: z.object({ slot: z.string().min(1).default('testReport') }).strict(),
  },
  baseRunnerStarted: {
    description: "The repository's tests could be run on the base (BaselineTests): the test runner started, or there were no tests to run.",
    params: z.object({}).strict(),
  },
} satisfies Record<string, VocabularyEntry>;

type ActorParams<K extends keyof typeof changeActorParams> = z.infer<(typeof changeActorParams)[K]['params']>;
type GuardParams<K extends keyof typeof changeGuardParams> = z.infer<(typeof changeGuardParams)[K]['params']>;

export function changeActorImplementations(services: RoleServices) {
  const scope = (context: RoleContext) => ({ context, board: services.board });
  return {
    mapRepository: fromPromise<C.RepositoryMap, StepInput<ActorParams<'mapRepository'>>>(async ({ input: { params } }) => {
      const root = services.workspace.root;
      // Before the run's first commit the work tree's HEAD is the base; later (a restored step) the map on the board stands.
      const earlier = services.board.latest<C.RepositoryMap>('RepositoryMap');
      if (earlier) return earlier.payload;
      const [head, branch] = await Promise.all([git(root, ['rev-parse', 'HEAD']), git(root, ['symbolic-ref', '--short', 'HEAD'])]);
      const name = branch.stdout.trim();
      const slug =
        name
          .split('/')
          .at(-1)!
          .toLowerCase()
          .replace(/[^a-z0-9._-]+/g, '-')
          .replace(/^-+|-+$/g, '') || 'change';
      const request = services.board.latest<Requirement>('Requirement')?.payload.spec ?? '';
      return mapRepository({ root, base: head.stdout.trim(), branch: name, slug, request, tokens: params.tokens });
    }),

    read: fromPromise<C.ReadFiles, StepInput<ActorParams<'read'>>>(async ({ input: { params, context } }) => {
      const request = C.ReadRequest.parse(resolveView(params.from, scope(context)));
      return readRequestedFiles(services.workspace.root, request, { maxFiles: params.maxFiles, maxChars: params.maxChars });
    }),

    edit: fromPromise<{ path: string; content: string; before: string | null; diff: string }, StepInput<ActorParams<'edit'>>>(
      async ({ input: { params, context }, signal }) => {
        const file = context.current;
        if (!file) throw new SopworksError('SOP_INVALID', `${services.profile.id}: step ${params.action} needs a current file (run it in a per-file SOP).`);
        const onto = params.onto && params.onto in context.slots ? (context.slots[params.onto] as { content: string; before?: string | null }) : null;
        // A file renamed by its task starts as the file at its old path.
        const task = currentChangeTask(services.board, file);
        const found = await originalContent({
          file,
          source: task.op === 'rename' && task.from ? task.from : file,
          codes: services.board.all<Code>('Code'),
          trigger: context.trigger,
          root: services.workspace.root,
          base: services.board.latest<C.RepositoryMap>('RepositoryMap')?.payload.base ?? null,
        });
        const before = onto ? (onto.before ?? null) : found;
        const original = onto ? onto.content : (found ?? '');
        const variables = Object.fromEntries(params.with.map((name) => [name, resolveView(name, scope(context))]));
        const refusal = writeRefusals(services.policy, services.profile.id, [file]);
        if (refusal.length > 0) throw new SopworksError('PATH_UNSAFE', `${services.profile.id} may not change ${file}: ${refusal.join('; ')}.`);
        const reply = (await services.gateway.ask({
          call: { role: services.profile.id, action: params.action, key: file },
          profile: services.fileSeats?.[params.by] ?? services.profile,
          variables: { ...variables, original: { path: file, content: original }, key: file },
          output: { kind: 'edits', path: file },
          occurrence: countOf(context.asks, askCounter(params.action, file)),
          accept: (value) => {
            const applied = applyEdits(original, value as EditsReply);
            return applied.ok ? null : applied.reason;
          },
          signal,
        })) as EditsReply;
        const applied = applyEdits(original, reply);
        if (!applied.ok) throw new SopworksError('REPLY_INVALID', applied.reason); // accepted above: cannot happen unless the file changed meanwhile
        return { path: file, content: applied.content, before, diff: unifiedDiff(file, before, applied.content) };
      },
    ),

    checkChangeTasks: fromPromise<void, StepInput<ActorParams<'checkChangeTasks'>>>(async ({ input: { params, context } }) => {
      const graph = C.ChangeTaskGraph.parse(resolveView(params.tasks, scope(context)));
      const design = C.DesignDelta.pick({ testCommand: true }).parse(resolveView(params.design, scope(context)));
      const problems = await changeTaskProblems(services.workspace.root, graph);
      for (const refusal of writeRefusals(
        services.policy,
        params.writer,
        graph.tasks.map((t) => t.file),
      ))
        problems.push(`a task the policy refuses: ${refusal}`);
      const testCommand = commandRefusal(services.policy, params.tester, design.testCommand);
      if (testCommand) problems.push(`the design's test command is refused: ${testCommand}`);
      if (problems.length > 0) throw new SopworksError('TASK_GRAPH_INVALID', `The change tasks are invalid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    }),

    runBaseTests: fromPromise<C.BaselineTests, StepInput<ActorParams<'runBaseTests'>>>(async ({ input: { params, context } }) => {
      const map = services.board.latest<C.RepositoryMap>('RepositoryMap')?.payload;
      if (!map) throw new SopworksError('SOP_INVALID', 'runBaseTests needs the RepositoryMap on the board (a change run publishes it first).');
      const design = C.DesignDelta.pick({ testCommand: true }).parse(resolveView(params.design, scope(context)));
      const empty = {
        round: 1,
        command: design.testCommand,
        passed: true,
        exitCode: null,
        timedOut: false,
        counts: null,
        failures: [],
        signature: 'no tests',
        output: '',
        sandbox: null,
      };
      if (!map.hasTests) {
        services.report({ kind: 'tests-start', detail: 'base: the repository has no tests; QA writes the first ones' });
        return { ...empty, ran: false, runner: { started: true, line: null } };
      }
      const refusal = commandRefusal(services.policy, services.profile.id, design.testCommand);
      if (refusal) {
        throw new SopworksError('TEST_RUN_FAILED', `Refused to run the design's test command on the base: ${refusal}.`, {
          hint: `Change the design's test command, or edit ${services.policy.source} if this command is safe to run.`,
        });
      }
      const install = params.install ? (context.slots[params.install] as InstallFacts | undefined) : undefined;
      // The documents committed so far are in the work tree before the tests look at it.
      await services.filesOnDisk();
      const report = await services.trackWork(() =>
        runBaseTests({
          root: services.workspace.root,
          command: design.testCommand,
          timeoutSeconds: Math.ceil(params.timeoutMs / 1000),
          sandbox: services.sandbox,
          install: install ?? null,
          progress: (kind, detail) => services.report({ kind, detail }),
          acceptRecordLine: ownRecordLine(services.board),
          holdCommits: (work) => services.workspace.withCommitsHeld(work),
        }),
      );
      if (!report.runner.started) services.report({ kind: 'tests-end', detail: `base: the tests could not start: ${report.runner.line}` });
      return report;
    }),

    compareWithBase: fromPromise<TestReport, StepInput<ActorParams<'compareWithBase'>>>(async ({ input: { params, context } }) => {
      const report = context.slots[params.slot] as TestReport | undefined;
      if (!report) throw new SopworksError('SOP_INVALID', `compareWithBase: the slot ${params.slot} holds no test report.`);
      const base = services.board.latest<C.BaselineTests>('BaselineTests')?.payload ?? null;
      const vsBase = compareWithBase(report, base);
      if (!report.passed)
        services.report({ kind: 'tests-end', detail: `round ${report.round}: ${vsBase.newFailures ? 'new failures' : 'nothing new'}: ${vsBase.lines[0]}` });
      return { ...report, vsBase };
    }),
  };
}

export function changeActionImplementations(services: RoleServices) {
  return {
    queueChangeTasks: assign(() => {
      const graph = services.board.latest<C.ChangeTaskGraph>('ChangeTaskGraph')?.payload;
      return { queue: graph ? topologicalOrder(graph) : [], done: [], current: null };
    }),
  };
}

export function changeGuardImplementations(services: RoleServices) {
  return {
    taskOp: ({ context }: { context: RoleContext }, params: GuardParams<'taskOp'>) => currentChangeTask(services.board, context.current).op === params.op,
    noNewFailures: ({ context }: { context: RoleContext }, params: GuardParams<'noNewFailures'>) => {
      const report = context.slots[params.slot] as TestReport | undefined;
      return report !== undefined && (report.passed || report.vsBase?.newFailures === false);
    },
    baseRunnerStarted: () => services.board.latest<C.BaselineTests>('BaselineTests')?.payload.runner.started ?? false,
  };
}
