/**
 * What the viewer writes, each a POST that the write guard lets through only with the token, from a
 * page of this server (Origin), addressed to it (Host), as JSON: a decision on a run awaiting approval
 * (recorded on the board as `sopworks approve` records it, then the run continued), answers to a role's
 * questions (`--clarify`: recorded as a terminal's answers are, then the run continued), a run continued
 * (`sopworks resume`), and a change requested of a finished run (`sopworks change`).
 */
import { z } from 'zod';
import { describeQuestions, describeRequest, readOpenQuestions, readPending, recordAnswers, recordDecision } from '../../../capabilities/approvals/index.ts';
import { MAX_CLARIFYING_QUESTIONS } from '../../../documents/index.ts';
import { describeError, SopworksError } from '../../../ground/errors.ts';
import { runFiles } from '../read-run.ts';
import { runStatus } from '../run-report.ts';
import { HttpError, readJsonBody, sendJson } from './http-kit.ts';
import type { Route } from './route-table.ts';
import type { LaunchView } from './run-launcher.ts';
import type { Handler, RequestParts, ServerContext } from './server-context.ts';

/** A write's body is a few lines (a request may be a long paragraph); anything longer is not one. */
const MAX_BODY = 80 * 1024;

/** A decision as the page sends it: approve, or reject saying what to change. */
const DecisionBody = z
  .object({
    approved: z.boolean(),
    feedback: z.string().trim().max(10_000).nullable().default(null),
  })
  .strict()
  .refine((d) => d.approved || (d.feedback !== null && d.feedback !== ''), {
    message: 'a rejection needs feedback: say what the role should change',
    path: ['feedback'],
  });
/** Answers to a role's questions as the page sends them: one per question, in order ("" for no preference). */
const AnswersBody = z
  .object({
    role: z.string().min(1).max(200),
    round: z.number().int().min(0),
    answers: z.array(z.string().trim().max(4000)).min(1).max(MAX_CLARIFYING_QUESTIONS),
  })
  .strict();
/** Continue a stopped run; a hint reaches a step that failed on its replies (`resume --hint`). */
const ResumeBody = z.object({ hint: z.string().trim().min(1).max(10_000).nullable().default(null) }).strict();
/** A change of a finished run, in the words `sopworks change` takes (at most 64 KB, as --spec-file). */
const ChangeBody = z
  .object({
    request: z
      .string()
      .trim()
      .min(1, 'say what to change')
      .max(64 * 1024),
  })
  .strict();

/** The body of a write, checked against its schema; a 400 that names each problem otherwise. */
async function bodyOf<T extends z.ZodType>(req: RequestParts['req'], schema: T, what: string): Promise<z.output<T>> {
  const body = schema.safeParse(await readJsonBody(req, MAX_BODY));
  if (!body.success) throw new HttpError(400, `Not ${what}: ${body.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}.`);
  return body.data;
}

/** A refusal of the run's own (busy, nothing waiting) as a conflict, not a server fault. */
function asConflict(error: unknown): never {
  if (SopworksError.isInstance(error) && (error.code === 'PROJECT_BUSY' || error.code === 'USAGE')) throw new HttpError(409, error.message, error.hint ?? null);
  throw error;
}

/** A launch that ended before it started (the CLI refused it) is a conflict that says why. */
function started(launch: LaunchView): LaunchView {
  if (launch.state === 'ended' && launch.error) throw new HttpError(409, launch.error.message, launch.error.hint);
  return launch;
}

/** Whether the run can be continued now, and a 409 that says why not. */
async function checkContinuable(ctx: ServerContext, name: string, dir: string): Promise<void> {
  if (ctx.launcher.busy(dir)) throw new HttpError(409, `This viewer is already continuing "${name}".`, 'Its progress shows on the run’s page.');
  const { phase } = runStatus((await ctx.loaded(name)).record);
  if (phase.phase === 'running')
    throw new HttpError(409, `"${name}" is at work already (another sopworks process holds it).`, 'Its progress shows on the run’s page.');
  if (phase.phase === 'done') throw new HttpError(409, `"${name}" is done: there is nothing to continue.`, 'Request a change of it instead.');
  if (phase.phase === 'awaiting-decision' && (await readPending(runFiles(dir).state)).length > 0)
    throw new HttpError(409, `"${name}" waits for your decision first.`, 'Approve or reject what it waits for; the run then goes on.');
  if (phase.phase === 'awaiting-decision' && (await readOpenQuestions(runFiles(dir).state)).length > 0)
    throw new HttpError(409, `"${name}" waits for your answers first.`, 'Answer its questions (an empty answer: no preference); the run then goes on.');
}

const resume = async (ctx: ServerContext, name: string, dir: string, hint: string | null): Promise<LaunchView> => {
  await checkContinuable(ctx, name, dir);
  return started(await ctx.launcher.resume({ project: dir, ...(hint ? { hint } : {}) }));
};

/** The run continued after what the person gave was recorded: its launch, or why it could not start. */
const continued = (ctx: ServerContext, name: string, dir: string) =>
  resume(ctx, name, dir, null).then(
    (view) => ({ launch: view, launchError: null }),
    (error: unknown) => ({ launch: null, launchError: { error: describeError(error), hint: error instanceof HttpError ? error.hint : null } }),
  );

const decide: Handler = async (ctx, { req, res, params }) => {
  const dir = await ctx.runDir(params.run!);
  const body = await bodyOf(req, DecisionBody, 'a decision');
  const decided = await recordDecision(runFiles(dir).state, { approved: body.approved, feedback: body.feedback || null }).catch(asConflict);
  // The decision is recorded whatever comes next; the run then goes on, started here.
  const launch = await continued(ctx, params.run!, dir);
  sendJson(res, 200, {
    decided: decided.map((r) => ({ role: r.role, gate: r.gate, key: r.key, round: r.round, what: describeRequest(r) })),
    approved: body.approved,
    next: `sopworks resume ${dir}`,
    ...launch,
  });
};

const answer: Handler = async (ctx, { req, res, params }) => {
  const dir = await ctx.runDir(params.run!);
  const body = await bodyOf(req, AnswersBody, 'answers');
  const answered = await recordAnswers(runFiles(dir).state, body).catch(asConflict);
  // Recorded as a terminal's answers are; the run then goes on, started here.
  const launch = await continued(ctx, params.run!, dir);
  sendJson(res, 200, { answered: describeQuestions(answered), next: `sopworks resume ${dir}`, ...launch });
};

const continueRun: Handler = async (ctx, { req, res, params }) => {
  const dir = await ctx.runDir(params.run!);
  const body = await bodyOf(req, ResumeBody, 'a request to continue');
  sendJson(res, 200, { launch: await resume(ctx, params.run!, dir, body.hint) });
};

const change: Handler = async (ctx, { req, res, params }) => {
  const dir = await ctx.runDir(params.run!);
  const body = await bodyOf(req, ChangeBody, 'a change request');
  if (!ctx.catalog.isFolder)
    throw new HttpError(
      409,
      'This viewer shows one run only, so a change of it would not show here.',
      'Serve the folder the run is in (`sopworks serve <folder>`).',
    );
  const { phase } = runStatus((await ctx.loaded(params.run!)).record);
  if (phase.phase !== 'done' && phase.phase !== 'failed')
    throw new HttpError(409, `"${params.run}" has not finished (${phase.label}): a change starts from a finished run.`, null);
  const launch = started(await ctx.launcher.change({ repo: dir, out: ctx.catalog.root, ...ctx.changeModel }, body.request));
  sendJson(res, 200, { launch, run: launch.projectDir ? ctx.catalog.nameOf(launch.projectDir) : null });
};

/** Every write, guarded before its handler runs. */
export const WRITE_ROUTES: Route<Handler>[] = (
  [
    ['/api/runs/:run/decision', decide],
    ['/api/runs/:run/answers', answer],
    ['/api/runs/:run/resume', continueRun],
    ['/api/runs/:run/change', change],
  ] as const
).map(([path, handle]) => ({
  method: 'POST',
  path,
  handle: (ctx, request) => {
    ctx.guard.check(request.req);
    return handle(ctx, request);
  },
}));
