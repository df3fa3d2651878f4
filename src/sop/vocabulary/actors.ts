/**
 * Actors a SOP may invoke: the steps with effects (model calls, publishing, running tests).
 * Each receives its parameters (validated from the SOP file) and the role's context at invocation.
 */
import { createActor, fromPromise, type AnyStateMachine } from 'xstate';
import { z } from 'zod';
import { SopworksError } from '../../errors.ts';
import { messageTypes } from '../../artifacts/registry.ts';
import * as S from '../../artifacts/schemas.ts';
import { validateTaskGraph } from '../../artifacts/task-graph.ts';
import { checkRelativePath } from '../../workspace/safe-path.ts';
import type { OutputSpec } from '../../llm/Gateway.ts';
import { runSandboxed } from '../../sandbox/run-sandboxed.ts';
import { commandRefusal } from '../../policy/may-run.ts';
import { writeRefusals } from '../../policy/may-write.ts';
import { failureSignature, parseTestOutput } from '../../sandbox/parse-test-output.ts';
import { askIdentity, type RoleContext } from '../role-context.ts';
import { resolveCallKey } from '../call-key.ts';
import type { RoleServices } from '../services.ts';
import { buildMachine } from '../build-machine.ts';
import { runOverDag } from '../dag-scheduler.ts';
import { resolveView } from '../views.ts';
import { renderPrd } from '../../artifacts/render/prd.ts';
import { renderDesign } from '../../artifacts/render/design.ts';
import type { VocabularyEntry } from './actions.ts';
import type { RoleProfile } from '../../roles/role-profile.ts';
import { stateName } from '../state-name.ts';

/** Structured outputs an `ask` step may request, besides `code` (one file) and `files` (several). */
export const askSchemas: Record<string, z.ZodType> = {
  Review: S.Review,
  ...Object.fromEntries(Object.entries(messageTypes).map(([name, type]) => [name, type.schema])),
};

/** An `ask` step's key: `current` (the current file), or a fixed project path, normalised. */
const CallKey = z.string().transform((value, ctx) => {
  if (value === 'current') return value;
  const checked = checkRelativePath(value);
  if (checked.ok) return checked.path;
  ctx.addIssue({ code: 'custom', message: `use current, or a path inside the project: unsafe path "${value}": ${checked.reason}` });
  return z.NEVER;
});

export const actorParams = {
  ask: {
    description:
      'Ask the model: render roles/<role>/<action>.hbs with the listed views, and validate the reply as `output` ' +
      '(a structured artifact such as PRD or Review; `code` for one file whose path is the key; `files` for several). ' +
      '`key` tells calls of one action apart: `current` (the current file) or a fixed project path such as docs/USER_GUIDE.md. ' +
      '`by`, in a per-file SOP: who is asked — the file\'s `writer` (default) or its `reviewer`, another of the role\'s people ' +
      'when the run hires several (`--engineers N`); the same one otherwise.',
    params: z
      .object({
        action: z.string().regex(/^[a-z][a-z0-9_]*$/, 'use lower-case letters, digits and underscores'),
        output: z.string().min(1),
        /** `current`: the call's key is the current file (per-file steps); otherwise a fixed project path. */
        key: CallKey.nullable().default(null),
        with: z.array(z.string().min(1)).default([]),
        by: z.enum(['writer', 'reviewer']).default('writer'),
      })
      .strict()
      .superRefine((p, ctx) => {
        if (p.output !== 'code' && p.output !== 'files' && !(p.output in askSchemas)) {
          ctx.addIssue({ code: 'custom', path: ['output'], message: `unknown output "${p.output}"; use code, files or one of ${Object.keys(askSchemas).join(', ')}` });
        }
        if (p.output === 'code' && p.key === null) {
          ctx.addIssue({ code: 'custom', path: ['key'], message: 'output "code" writes the file named by the key: add key: current, or a path such as key: docs/USER_GUIDE.md' });
        }
      }),
  },
  publish: {
    description:
      'Post a message on the board (and commit the files it carries). The payload is a view or slot (`payload`), ' +
      'with extra fields taken from other views or slots (`fields`).',
    params: z
      .object({
        type: z.string().min(1),
        payload: z.string().min(1).nullable().default(null),
        fields: z.record(z.string(), z.string().min(1)).default({}),
        to: z.string().min(1).default('all'),
      })
      .strict(),
  },
  check: {
    description:
      'Check an artifact; fails with the problems found. `taskGraph`: the slot `tasks` against `design`, and against the ' +
      'policy: the `writer` role (default engineer) may write every task\'s file, the `tester` (default qa) may run the test command.',
    params: z
      .object({ check: z.enum(['taskGraph']), writer: z.string().min(1).default('engineer'), tester: z.string().min(1).default('qa') })
      .strict(),
  },
  runTests: {
    description:
      "Run the design's test command in the sandbox (docs/sandbox.md), without network, with a wall-clock limit, if the policy " +
      'lets this role run it (dependencies come from an installDependencies step before it); the output is a TestReport.',
    params: z.object({ timeoutMs: z.number().int().min(1000).default(120_000) }).strict(),
  },
  eachFile: {
    description:
      'Work on every queued file with a per-file SOP (`sop`: a file next to this SOP, whose machine ends in a final state), ' +
      'up to --concurrency files at once: a file starts as soon as the files it depends on are written, and the messages ' +
      "the files' machines publish go out in queue order (dependency order) whatever order they finish in. Each file's " +
      'machine starts with the file as `current` and sees the final content of the files it depends on; when every file ' +
      'has ended, `done` lists the files written, and their model calls and messages count as this role\'s. ' +
      '`order: none` starts the files in queue order without waiting for their dependencies (work that does not build on ' +
      'other files, such as tests of finished files). `collect` names a slot each file\'s machine keeps: the values are ' +
      'joined in queue order into that slot of this role (lists are concatenated; an item with a `path` replaces an ' +
      'earlier one with the same path). On a gentle stop (the first Ctrl-C), the files under way are finished and no ' +
      'other is started; resumed, the step carries on.',
    params: z
      .object({
        sop: z.string().regex(/^[\w.-]+\.ya?ml$/, 'name a YAML file next to this SOP, e.g. engineer-file.yaml'),
        order: z.enum(['dependencies', 'none']).default('dependencies'),
        collect: z.string().min(1).nullable().default(null),
      })
      .strict(),
  },
  awaitFile: {
    description:
      "Wait until the current file's Code is on the board (written and reviewed), e.g. to test a file as soon as it is " +
      'finished while others are still being written. Fails if the run reaches an outcome first.',
    params: z.object({}).strict(),
  },
  awaitApproval: {
    description:
      'Hold an artifact back until a person approves it, when the run gates it (`--approve prd,design,code,tests`); ' +
      'without the gate, go straight on. `show` is the view or slot shown to the person. A rejection fails the step ' +
      'with the feedback (keep it with `keepFeedback`).',
    params: z
      .object({
        gate: z.enum(['prd', 'design', 'code', 'tests']),
        show: z.string().min(1),
        key: z.enum(['current']).nullable().default(null),
      })
      .strict(),
  },
  conclude: {
    description: 'End the run with an outcome (done or failed) and a reason; a `detail` view is appended to the reason.',
    params: z
      .object({ outcome: z.enum(['done', 'failed']), reason: z.string().min(1), detail: z.string().min(1).nullable().default(null) })
      .strict(),
  },
} satisfies Record<string, VocabularyEntry>;

type Params<K extends keyof typeof actorParams> = z.infer<(typeof actorParams)[K]['params']>;
/** What `eachFile` hands back, merged into the role's context on done (see build-machine.ts). */
export interface EachFileOutput {
  done: string[];
  published: number;
  asks: Record<string, number>;
  /** The `collect` slot and what the files' machines kept in it, joined. */
  collected?: { slot: string; value: unknown[] };
}

export interface StepInput<P> {
  params: P;
  context: RoleContext;
}

export function actorImplementations(services: RoleServices) {
  const scope = (context: RoleContext) => ({ context, board: services.board });

  return {
    ask: fromPromise<unknown, StepInput<Params<'ask'>>>(async ({ input: { params, context }, signal }) => {
      const key = resolveCallKey(params.key, context);
      if (params.key === 'current' && key === null) {
        throw new SopworksError('SOP_INVALID', `${services.profile.id}: step ${params.action} needs a current file, but none is set (use nextTask first).`);
      }
      const output: OutputSpec =
        params.output === 'code'
          ? { kind: 'code', path: key! }
          : params.output === 'files'
            ? { kind: 'files' }
            : { kind: 'json', name: params.output, schema: askSchemas[params.output]! };
      const variables = Object.fromEntries(params.with.map((name) => [name, resolveView(name, scope(context))]));
      return services.gateway.ask({
        call: { role: services.profile.id, action: params.action, key },
        profile: services.fileSeats?.[params.by] ?? services.profile,
        variables: { ...variables, key },
        output,
        occurrence: context.asks[askIdentity(params.action, key)] ?? 0,
        // A file the role may not write goes back to it with the reason, like any invalid reply.
        accept: output.kind === 'json' ? undefined : (value) => refusalOfFiles(services, value),
        signal,
      });
    }),

    publish: fromPromise<string, StepInput<Params<'publish'>>>(async ({ input: { params, context } }) => {
      const base = params.payload ? resolveView(params.payload, scope(context)) : {};
      const extra = Object.fromEntries(Object.entries(params.fields).map(([field, view]) => [field, resolveView(view, scope(context))]));
      const payload = Array.isArray(base) ? { ...extra } : { ...(base as object), ...extra };
      refuseUnwritableFiles(services, params.type, payload);
      const message = await services.publish({
        type: params.type,
        from: services.profile.id,
        to: params.to,
        causedBy: context.trigger ? [context.trigger] : [],
        payload,
      }, context.published);
      return message.id;
    }),

    check: fromPromise<void, StepInput<Params<'check'>>>(async ({ input: { params, context } }) => {
      const tasks = S.TaskGraph.parse(resolveView('tasks', scope(context)));
      const design = S.Design.parse(resolveView('design', scope(context)));
      const problems = validateTaskGraph(tasks, design);
      for (const refusal of writeRefusals(services.policy, params.writer, tasks.tasks.map((t) => t.file))) problems.push(`a task the policy refuses: ${refusal}`);
      const testCommand = commandRefusal(services.policy, params.tester, design.testCommand);
      if (testCommand) problems.push(`the design's test command is refused: ${testCommand}`);
      if (problems.length > 0) {
        throw new SopworksError('TASK_GRAPH_INVALID', `The task graph is invalid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
      }
    }),

    runTests: fromPromise<S.TestReport, StepInput<Params<'runTests'>>>(async ({ input: { params, context } }) => {
      const design = S.Design.parse(resolveView('design', scope(context)));
      const round = services.board.all('TestReport').length + 1;
      const role = services.profile.id;
      const refusal = commandRefusal(services.policy, role, design.testCommand);
      if (refusal) {
        throw new SopworksError('TEST_RUN_FAILED', `Refused to run the design's test command: ${refusal}.`, {
          hint: `Change the design's test command, or edit ${services.policy.source} if this command is safe to run.`,
        });
      }
      const { sandbox } = services;
      // The code and tests just posted may still be on their way into the repository.
      await services.filesOnDisk();
      const run = (argv: readonly string[], network: boolean) =>
        runSandboxed({
          argv,
          projectDir: services.workspace.root,
          limits: { ...sandbox.limits, wallSeconds: Math.ceil(params.timeoutMs / 1000) },
          setting: sandbox.mode,
          allowUnsandboxed: sandbox.allowUnsandboxed,
          network,
          onNotice: (notice) => services.report({ kind: 'tests-start', detail: `round ${round}: ${notice}` }),
        });

      // Dependencies were installed by the SOP's installDependencies step before this round, if it has one.
      const command = design.testCommand;
      services.report({ kind: 'tests-start', detail: `round ${round}: ${design.testCommand.join(' ')}` });
      const outcome = await run(design.testCommand, false);

      const parsed = parseTestOutput(outcome.output);
      const passed = command === design.testCommand && outcome.exitCode === 0 && !outcome.timedOut && (parsed.counts?.failed ?? 0) === 0;
      const report: S.TestReport = {
        round,
        command,
        passed,
        exitCode: outcome.exitCode,
        timedOut: outcome.timedOut,
        counts: parsed.counts,
        failures: parsed.failures,
        signature: passed ? 'passed' : failureSignature(parsed, outcome.exitCode, outcome.timedOut, outcome.output),
        output: outcome.output.slice(-8000),
        sandbox: { mode: outcome.mode, limits: outcome.limits, limitsHit: outcome.limitsHit, violations: outcome.violations, gaps: outcome.gaps },
      };
      const counts = parsed.counts ? ` (${parsed.counts.passed} passed, ${parsed.counts.failed} failed)` : '';
      services.report({ kind: 'tests-end', detail: `round ${round}: ${passed ? 'passed' : outcome.timedOut ? 'timed out' : 'failed'}${counts}` });
      // What the sandbox stopped, or that it was a weaker one, gets a line of its own.
      const seen = [
        outcome.mode !== 'bubblewrap' ? `ran ${outcome.mode === 'unsandboxed' ? 'NOT SANDBOXED' : `under the WEAKER ${outcome.mode} sandbox`}` : null,
        outcome.limitsHit.length > 0 ? `limits hit: ${outcome.limitsHit.join(', ')}` : null,
        outcome.violations.length > 0 ? `blocked: ${outcome.violations.map((v) => `${v.kind}: ${v.detail}`).join('; ')}` : null,
      ].filter((part): part is string => part !== null);
      if (seen.length > 0) services.report({ kind: 'tests-end', detail: `round ${round}: sandbox ${outcome.mode}: ${seen.join('; ')}` });
      return report;
    }),

    eachFile: fromPromise<EachFileOutput, StepInput<Params<'eachFile'>>>(async ({ input: { params, context }, signal }) => {
      const sop = services.subSops[params.sop];
      if (!sop) {
        throw new SopworksError('SOP_INVALID', `${services.profile.id}: the per-file SOP ${params.sop} was not loaded; \`sopworks sop validate\` says why.`);
      }
      const graph = services.board.latest<S.TaskGraph>('TaskGraph')?.payload;
      const asks: Record<string, number> = {};
      const kept = new Map<string, unknown>();
      const result = await runOverDag({
        files: context.queue,
        dependsOn: (file) => (params.order === 'none' ? [] : (graph?.tasks.find((t) => t.file === file)?.dependsOn ?? [])),
        concurrency: services.concurrency,
        signal,
        windDown: services.windDown,
        job: async (file, handle) => {
          const seats = fileSeats(services.seats, file, graph);
          const fileServices: RoleServices = {
            ...services,
            fileSeats: seats,
            // The file is written once its Code is drafted; the message itself waits for the file's turn.
            publish: async (draft) => {
              const code = draft.type === 'Code' ? S.CodeFile.safeParse(draft.payload) : null;
              if (code?.success && code.data.path === file) handle.written(code.data.content);
              const nth = context.published + (await handle.turn());
              // Who wrote and who reviewed it go with the file: the commit is its writer's.
              const signed = draft.type === 'Code' ? { ...draft, payload: { ...(draft.payload as object), author: person(seats.writer), reviewer: person(seats.reviewer) } } : draft;
              // The next file may post as soon as this message is on the board; the commits keep board order.
              return services.publish(signed, nth, () => handle.posted());
            },
          };
          const machine = buildMachine(sop, fileServices, { current: file, trigger: context.trigger, asks: context.asks, written: handle.dependencies });
          const final = await runToCompletion(machine, handle.signal, file);
          // Keys are per file, so the counts of different files never overlap.
          for (const [id, count] of Object.entries(final.asks)) if (count !== context.asks[id]) asks[id] = count;
          if (params.collect && params.collect in final.slots) kept.set(file, final.slots[params.collect]);
        },
      });
      const collected = params.collect ? { slot: params.collect, value: joinCollected(context.queue.filter((f) => kept.has(f)).map((f) => kept.get(f))) } : undefined;
      return { done: result.written, published: result.published, asks, ...(collected ? { collected } : {}) };
    }),

    awaitFile: fromPromise<void, StepInput<Params<'awaitFile'>>>(async ({ input: { context }, signal }) => {
      const file = context.current;
      if (!file) throw new SopworksError('SOP_INVALID', `${services.profile.id}: awaitFile needs a current file (run it in a per-file SOP, or after nextTask).`);
      const board = services.board;
      const written = (message: { type: string; payload: unknown }) => message.type === 'Code' && (message.payload as S.Code).path === file;
      if (board.all('Code').some(written)) return;
      const outcome = board.latest<S.Outcome>('Outcome');
      if (outcome) throw runEnded(file, outcome.payload);
      await new Promise<void>((resolve, reject) => {
        const done = (settle: () => void) => {
          unsubscribe();
          signal.removeEventListener('abort', onAbort);
          settle();
        };
        const unsubscribe = board.subscribe((message) => {
          if (written(message)) done(resolve);
          else if (message.type === 'Outcome') done(() => reject(runEnded(file, message.payload as S.Outcome)));
        });
        const onAbort = () => done(() => reject(signal.reason));
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }),

    awaitApproval: fromPromise<void, StepInput<Params<'awaitApproval'>>>(async ({ input: { params, context }, signal }) => {
      if (!services.approvals.gated(params.gate)) return;
      const key = params.key === 'current' ? context.current : null;
      const request = {
        role: services.profile.id,
        gate: params.gate,
        key,
        round: context.asks[approvalIdentity(params.gate, key)] ?? 0,
        content: approvalContent(resolveView(params.show, scope(context))),
      };
      const decision = await services.approvals.decide(request, signal);
      if (!decision.approved) {
        throw new SopworksError('APPROVAL_REJECTED', decision.feedback?.trim() || 'rejected without feedback: revise it so a person would approve it');
      }
    }),

    conclude: fromPromise<string, StepInput<Params<'conclude'>>>(async ({ input: { params, context } }) => {
      const detail = params.detail ? summarise(resolveView(params.detail, scope(context))) : '';
      const message = await services.publish({
        type: 'Outcome',
        from: services.profile.id,
        causedBy: context.trigger ? [context.trigger] : [],
        payload: { outcome: params.outcome, reason: detail ? `${params.reason}: ${detail}` : params.reason },
      }, context.published);
      return message.id;
    }),
  };
}

/**
 * A file's writer and reviewer among the role's people: the files are dealt out in task-graph order
 * (the same file goes to the same person when it is written and when it is fixed), and each is reviewed
 * by the next person — a second pair of eyes whenever there are two. Files the task graph does not name
 * (a test file in a bug report, say) are placed by their path.
 */
export function fileSeats(seats: readonly RoleProfile[], file: string, graph: S.TaskGraph | undefined): { writer: RoleProfile; reviewer: RoleProfile } {
  const inGraph = graph?.tasks.findIndex((t) => t.file === file) ?? -1;
  const index = inGraph >= 0 ? inGraph : [...file].reduce((sum, ch) => (sum * 31 + ch.charCodeAt(0)) % 1_000_003, 0);
  return { writer: seats[index % seats.length]!, reviewer: seats[(index + 1) % seats.length]! };
}

/** The values each file's machine kept, in queue order: lists joined, a later item with a path replacing an earlier one. */
function joinCollected(values: unknown[]): unknown[] {
  const items = values.flatMap((value) => (Array.isArray(value) ? value : [value]));
  const lastByPath = new Map<string, number>();
  items.forEach((item, index) => {
    const itemPath = (item as { path?: unknown } | null)?.path;
    if (typeof itemPath === 'string') lastByPath.set(itemPath, index);
  });
  return items.filter((item, index) => {
    const itemPath = (item as { path?: unknown } | null)?.path;
    return typeof itemPath !== 'string' || lastByPath.get(itemPath) === index;
  });
}

const runEnded = (file: string, outcome: S.Outcome): SopworksError =>
  new SopworksError('RUN_ENDED', `the run reached its outcome (${outcome.outcome}: ${outcome.reason}) before ${file} was written`);

const person = (profile: RoleProfile): { name: string; email: string } => ({ name: profile.title, email: profile.email });

/**
 * Runs a file's machine until it reaches a final state; rejects when the signal aborts, or with its
 * error, named after the file and the step it stopped in (the role's own state says only "eachFile").
 */
function runToCompletion(machine: AnyStateMachine, signal: AbortSignal, file: string): Promise<RoleContext> {
  return new Promise<RoleContext>((resolve, reject) => {
    const actor = createActor(machine);
    const onAbort = () => {
      actor.stop();
      reject(signal.reason);
    };
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    actor.subscribe({
      complete: () => {
        signal.removeEventListener('abort', onAbort);
        resolve(actor.getSnapshot().context as RoleContext);
      },
      error: (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(inFileStep(error, file, stateName(actor.getSnapshot().value)));
      },
    });
    actor.start();
  });
}

/** The same error (its code and hint kept: a budget or an interruption is still recognised) saying where. */
function inFileStep(error: unknown, file: string, step: string): unknown {
  const where = `${file}, step "${step}": `;
  if (SopworksError.isInstance(error)) return new SopworksError(error.code, where + error.message, { hint: error.hint, cause: error });
  if (error instanceof Error) return new Error(where + error.message, { cause: error });
  return error;
}

/** Why the role may not write the files of a `code` or `files` reply, or null when it may write them all. */
function refusalOfFiles(services: RoleServices, value: unknown): string | null {
  const files = (Array.isArray(value) ? value : [value]) as S.CodeFile[];
  const refusals = writeRefusals(services.policy, services.profile.id, files.map((f) => f.path));
  return refusals.length > 0 ? `${refusals.join('; ')}. Reply only with files you may write.` : null;
}

/** A message whose files the role may not write is refused before it reaches the board. */
function refuseUnwritableFiles(services: RoleServices, type: string, payload: unknown): void {
  const definition = messageTypes[type];
  const parsed = definition?.paths ? definition.schema.safeParse(payload) : null;
  if (!definition?.paths || !parsed?.success) return; // no files, or the board will report the invalid payload
  const refusals = writeRefusals(services.policy, services.profile.id, definition.paths(parsed.data, services.board));
  if (refusals.length > 0) {
    throw new SopworksError('PATH_UNSAFE', `${services.profile.id} may not publish this ${type}: ${refusals.join('; ')}.`, {
      hint: `Change the SOP or the artifact, or edit ${services.policy.source} to allow it.`,
    });
  }
}

function summarise(value: unknown): string {
  const report = S.TestReport.safeParse(value);
  if (report.success) {
    const names = report.data.failures.map((f) => f.name);
    return names.length > 0 ? `failing tests: ${names.join('; ')}` : `exit code ${report.data.exitCode}${report.data.timedOut ? ' (timed out)' : ''}`;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The counter of decisions asked for a gate and key (kept beside the ask counters, see build-machine.ts). */
export const approvalIdentity = (gate: string, key: string | null): string => askIdentity(`approval:${gate}`, key);

/** An artifact as markdown for a person to read. */
function approvalContent(value: unknown): string {
  const prd = S.PRD.safeParse(value);
  if (prd.success) return renderPrd(prd.data);
  const design = S.Design.safeParse(value);
  if (design.success) return renderDesign(design.data, 'the project');
  const file = S.CodeFile.safeParse(value);
  if (file.success) return `### ${file.data.path}\n\n\`\`\`\n${file.data.content}\`\`\``;
  const files = z.array(S.CodeFile).safeParse(value);
  if (files.success) return files.data.map((f) => `### ${f.path}\n\n\`\`\`\n${f.content}\`\`\``).join('\n\n');
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
