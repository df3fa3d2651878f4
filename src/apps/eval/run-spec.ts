/**
 * Runs one spec to an outcome through the session (src/session/) — a start for a new project, a change
 * for a change task (on its repository, change-repository.ts), a resume for one that stopped before its
 * outcome — in this process, with the run's progress and summary going to a log file as `sopworks run`
 * would print them. Used by `sopworks eval` and by the queue's workers alike (which hand in their lease,
 * their stop signals and their rate limits as hooks), so a run made either way is the same run.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { STATE_DIR } from '../../capabilities/repository/index.ts';
import { type RunOutcome, readRunRecord } from '../../company/index.ts';
import { describeError, type ErrorCode, SopworksError } from '../../ground/errors.ts';
import {
  execute,
  exitCodeOfError,
  type Lines,
  type PreparedRun,
  prepareChange,
  prepareResume,
  prepareStart,
  type SessionHooks,
  type StartAsk,
} from '../../session/index.ts';
import { commandOutput, reportRun } from '../console/index.ts';
import { tracedRun } from '../tracing/index.ts';
import { changeRepository } from './change-repository.ts';
import type { ChangeSource } from './suite-file.ts';

/** What the front end running the spec hands its run: when to stop, a queued run's lease, what wraps the provider. */
export type SpecRunHooks = Pick<SessionHooks, 'stop' | 'lease' | 'provider'>;

export interface SpecRunRequest {
  name: string;
  spec: string;
  /** Absolute scenario file, or null for the model of `llm`/the settings. */
  scenario: string | null;
  /** Where the project folder goes: <out>/<name>. */
  out: string;
  llm?: string;
  model?: string;
  sops: string;
  roles: string;
  allowUnsandboxed: boolean;
  /** Where the run's progress and summary are written. */
  logFile: string;
  /** A change task: the repository and commit the change starts from (the company of `<sops>/change/`). */
  change?: ChangeSource | null;
  /** `--chaos`: spoil that share of the scenario's replies, drawn from this seed; null or absent: a clean run. */
  chaos?: { rate: number; seed: number } | null;
  /** The person's instructions for every role (a job's, from `submit --instructions`): as `run --instructions` gives them. */
  instructions?: string | null;
  /**
   * The flags of `run` a new run starts with (a job's, from `submit --until …`), as `run`'s request takes
   * them; a resumed run keeps those of its run.json instead.
   */
  flags?: Pick<StartAsk, 'until' | 'approve' | 'budget' | 'maxTokens' | 'maxTime' | 'engineers' | 'modelFor'> | null;
}

/** What a project folder says about its run. */
export type RunState =
  | { kind: 'absent' }
  /** A folder without a run record: a start cut off before run.json was written. */
  | { kind: 'unstarted' }
  | { kind: 'finished'; outcome: RunOutcome }
  /** Interrupted, or cut off (no outcome): resume continues it. */
  | { kind: 'resumable'; outcome: RunOutcome | null };

/** Outcomes a run ends with for good; `interrupted` and no outcome are continued. */
export const FINAL_OUTCOMES: readonly RunOutcome[] = ['done', 'failed', 'criteria-unmet', 'budget-exhausted', 'awaiting-approval'];

export async function runState(projectDir: string): Promise<RunState> {
  if (
    !(await fsp.stat(projectDir).then(
      () => true,
      () => false,
    ))
  )
    return { kind: 'absent' };
  const stateDir = path.join(projectDir, STATE_DIR);
  if (!fs.existsSync(path.join(stateDir, 'run.json'))) return { kind: 'unstarted' };
  const record = await readRunRecord(stateDir);
  if (record.outcome && FINAL_OUTCOMES.includes(record.outcome)) return { kind: 'finished', outcome: record.outcome };
  return { kind: 'resumable', outcome: record.outcome ?? null };
}

/**
 * Brings the spec's run to an outcome: starts it, resumes it, or leaves a finished one alone. Returns
 * the CLI's exit code, and the error message when it could not start at all.
 */
export interface SpecRunOutcome {
  exitCode: number;
  /** What kept the run from starting (its message and hint), and its code: null when it ran. */
  error: string | null;
  errorCode: ErrorCode | 'UNEXPECTED' | null;
  action: 'started' | 'resumed' | 'kept';
}

export async function runSpec(request: SpecRunRequest, front: SpecRunHooks = {}): Promise<SpecRunOutcome> {
  const projectDir = path.join(request.out, request.name);
  const state = await runState(projectDir);
  if (state.kind === 'finished') return { exitCode: state.outcome === 'done' ? 0 : 1, error: null, errorCode: null, action: 'kept' };
  await fsp.mkdir(path.dirname(request.logFile), { recursive: true });
  const log = fs.createWriteStream(request.logFile, { flags: 'a' });
  const io: Lines = { out: (line) => log.write(line + '\n'), err: (line) => log.write(line + '\n') };
  const output = commandOutput(io, false, state.kind === 'resumable' ? 'resume' : 'run');
  const hooks: SessionHooks = { ...front, lines: output.human };
  const action = state.kind === 'resumable' ? 'resumed' : 'started';
  try {
    const prepared = await prepareSpec(request, state, projectDir, hooks);
    const result = await tracedRun(prepared.command === 'resume' ? 'resume' : 'run', io.err, output.progress, (onEvent) =>
      execute(prepared, { ...hooks, onEvent }),
    );
    await reportRun(result, prepared.provider.label, output);
    return { exitCode: result.exitCode, error: null, errorCode: null, action };
  } catch (error) {
    io.err(`error ${describeError(error)}`);
    // The exit code the command line would give it, by its code.
    return { exitCode: exitCodeOfError(error), error: describeError(error), errorCode: SopworksError.isInstance(error) ? error.code : 'UNEXPECTED', action };
  } finally {
    await new Promise<void>((resolve) => log.end(resolve));
  }
}

/** The spec's run as the session takes it: resumed, a change of the task's repository, or started. */
async function prepareSpec(request: SpecRunRequest, state: RunState, projectDir: string, hooks: SessionHooks): Promise<PreparedRun> {
  if (state.kind === 'resumable') return prepareResume({ project: projectDir, allowUnsandboxed: request.allowUnsandboxed }, hooks);
  const common = {
    name: request.name,
    out: request.out,
    llm: request.scenario ? `scripted:${request.scenario}` : request.llm,
    model: request.model,
    // A folder without a run record holds nothing a run made: it is started again.
    force: state.kind === 'unstarted',
    allowUnsandboxed: request.allowUnsandboxed,
    roles: request.roles,
    chaos: request.chaos?.rate,
    seed: request.chaos?.seed,
  };
  if (request.change) {
    // A change task: the change company beside the suite's company (<sops>/change/), on the task's repository.
    const repo = await changeRepository(request.out, request.name, request.change);
    return prepareChange({ ...common, repo, request: request.spec, sops: path.join(request.sops, 'change') }, hooks);
  }
  return prepareStart({ ...common, ...request.flags, spec: request.spec, sops: request.sops, instructionsText: request.instructions ?? null }, hooks);
}
