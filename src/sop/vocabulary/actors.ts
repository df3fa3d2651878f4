/**
 * Actors a SOP may invoke: the steps with effects (model calls, publishing, running tests).
 * Each receives its parameters (validated from the SOP file) and the role's context at invocation.
 */
import { fromPromise } from 'xstate';
import { z } from 'zod';
import { SopworksError } from '../../errors.ts';
import { messageTypes } from '../../artifacts/registry.ts';
import * as S from '../../artifacts/schemas.ts';
import { validateTaskGraph } from '../../artifacts/task-graph.ts';
import type { OutputSpec } from '../../llm/Gateway.ts';
import { runProcess } from '../../sandbox/run-process.ts';
import { failureSignature, parseTestOutput } from '../../sandbox/parse-test-output.ts';
import type { RoleContext } from '../role-context.ts';
import type { RoleServices } from '../services.ts';
import { resolveView } from '../views.ts';
import type { VocabularyEntry } from './actions.ts';

/** Structured outputs an `ask` step may request, besides `code` (one file) and `files` (several). */
export const askSchemas: Record<string, z.ZodType> = {
  Review: S.Review,
  ...Object.fromEntries(Object.entries(messageTypes).map(([name, type]) => [name, type.schema])),
};

export const actorParams = {
  ask: {
    description:
      'Ask the model: render roles/<role>/<action>.hbs with the listed views, and validate the reply as `output` ' +
      '(a structured artifact such as PRD or Review; `code` for one file whose path is the current file; `files` for several).',
    params: z
      .object({
        action: z.string().regex(/^[a-z][a-z0-9_]*$/, 'use lower-case letters, digits and underscores'),
        output: z.string().min(1),
        /** `current`: the call's key is the current file (per-file steps). */
        key: z.enum(['current']).nullable().default(null),
        with: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .superRefine((p, ctx) => {
        if (p.output !== 'code' && p.output !== 'files' && !(p.output in askSchemas)) {
          ctx.addIssue({ code: 'custom', path: ['output'], message: `unknown output "${p.output}"; use code, files or one of ${Object.keys(askSchemas).join(', ')}` });
        }
        if (p.output === 'code' && p.key !== 'current') {
          ctx.addIssue({ code: 'custom', path: ['key'], message: 'output "code" writes the current file: add key: current' });
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
    description: 'Check an artifact; fails with the problems found. `taskGraph`: the slot `tasks` against `design`.',
    params: z.object({ check: z.enum(['taskGraph']) }).strict(),
  },
  runTests: {
    description: "Run the design's test command in the project with a time limit; the output is a TestReport.",
    params: z.object({ timeoutMs: z.number().int().min(1000).default(120_000) }).strict(),
  },
  conclude: {
    description: 'End the run with an outcome (done or failed) and a reason; a `detail` view is appended to the reason.',
    params: z
      .object({ outcome: z.enum(['done', 'failed']), reason: z.string().min(1), detail: z.string().min(1).nullable().default(null) })
      .strict(),
  },
} satisfies Record<string, VocabularyEntry>;

type Params<K extends keyof typeof actorParams> = z.infer<(typeof actorParams)[K]['params']>;
export interface StepInput<P> {
  params: P;
  context: RoleContext;
}

export function actorImplementations(services: RoleServices) {
  const scope = (context: RoleContext) => ({ context, board: services.board });

  return {
    ask: fromPromise<unknown, StepInput<Params<'ask'>>>(async ({ input: { params, context }, signal }) => {
      const key = params.key === 'current' ? context.current : null;
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
        profile: services.profile,
        variables: { ...variables, key },
        output,
        signal,
      });
    }),

    publish: fromPromise<string, StepInput<Params<'publish'>>>(async ({ input: { params, context } }) => {
      const base = params.payload ? resolveView(params.payload, scope(context)) : {};
      const extra = Object.fromEntries(Object.entries(params.fields).map(([field, view]) => [field, resolveView(view, scope(context))]));
      const payload = Array.isArray(base) ? { ...extra } : { ...(base as object), ...extra };
      const message = await services.publish({
        type: params.type,
        from: services.profile.id,
        to: params.to,
        causedBy: context.trigger ? [context.trigger] : [],
        payload,
      });
      return message.id;
    }),

    check: fromPromise<void, StepInput<Params<'check'>>>(async ({ input: { context } }) => {
      const tasks = S.TaskGraph.parse(resolveView('tasks', scope(context)));
      const design = S.Design.parse(resolveView('design', scope(context)));
      const problems = validateTaskGraph(tasks, design);
      if (problems.length > 0) {
        throw new SopworksError('TASK_GRAPH_INVALID', `The task graph is invalid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
      }
    }),

    runTests: fromPromise<S.TestReport, StepInput<Params<'runTests'>>>(async ({ input: { params, context } }) => {
      const design = S.Design.parse(resolveView('design', scope(context)));
      const round = services.board.all('TestReport').length + 1;
      services.report({ kind: 'tests-start', detail: `round ${round}: ${design.testCommand.join(' ')}` });
      let result;
      try {
        result = await runProcess(design.testCommand, { cwd: services.workspace.root, timeoutMs: params.timeoutMs });
      } catch (error) {
        throw new SopworksError('TEST_RUN_FAILED', `Could not start the test command "${design.testCommand.join(' ')}": ${(error as Error).message}`, {
          hint: 'The design names a test command that is not installed here; fix the design or install the runner.',
        });
      }
      const parsed = parseTestOutput(result.output);
      const passed = result.exitCode === 0 && !result.timedOut && (parsed.counts?.failed ?? 0) === 0;
      const report: S.TestReport = {
        round,
        command: design.testCommand,
        passed,
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        counts: parsed.counts,
        failures: parsed.failures,
        signature: passed ? 'passed' : failureSignature(parsed, result.exitCode, result.timedOut, result.output),
        output: result.output.slice(-8000),
      };
      const counts = parsed.counts ? ` (${parsed.counts.passed} passed, ${parsed.counts.failed} failed)` : '';
      services.report({ kind: 'tests-end', detail: `round ${round}: ${passed ? 'passed' : result.timedOut ? 'timed out' : 'failed'}${counts}` });
      return report;
    }),

    conclude: fromPromise<string, StepInput<Params<'conclude'>>>(async ({ input: { params, context } }) => {
      const detail = params.detail ? summarise(resolveView(params.detail, scope(context))) : '';
      const message = await services.publish({
        type: 'Outcome',
        from: services.profile.id,
        causedBy: context.trigger ? [context.trigger] : [],
        payload: { outcome: params.outcome, reason: detail ? `${params.reason}: ${detail}` : params.reason },
      });
      return message.id;
    }),
  };
}

function summarise(value: unknown): string {
  const report = S.TestReport.safeParse(value);
  if (report.success) {
    const names = report.data.failures.map((f) => f.name);
    return names.length > 0 ? `failing tests: ${names.join('; ')}` : `exit code ${report.data.exitCode}${report.data.timedOut ? ' (timed out)' : ''}`;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}
