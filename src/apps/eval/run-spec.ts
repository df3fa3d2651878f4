/**
 * Runs one spec to an outcome through the CLI's own entry points — `run` for a new project, `resume`
 * for one that stopped before its outcome — in this process, with the run's output going to a log file.
 * Used by `sopworks eval` and by the queue's workers alike, so a run made either way is the same run.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { readRunRecord, type RunOutcome } from '../../company/run-record.ts';
import { describeError, SopworksError } from '../../ground/errors.ts';
import { runCommands, type Lines } from './run-commands.ts';
import { STATE_DIR } from '../../capabilities/repository/workspace.ts';

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
export const FINAL_OUTCOMES: readonly RunOutcome[] = ['done', 'failed', 'budget-exhausted', 'awaiting-approval'];

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
export async function runSpec(request: SpecRunRequest): Promise<{ exitCode: number; error: string | null; action: 'started' | 'resumed' | 'kept' }> {
  const projectDir = path.join(request.out, request.name);
  const state = await runState(projectDir);
  if (state.kind === 'finished') return { exitCode: state.outcome === 'done' ? 0 : 1, error: null, action: 'kept' };
  await fsp.mkdir(path.dirname(request.logFile), { recursive: true });
  const log = fs.createWriteStream(request.logFile, { flags: 'a' });
  const io: Lines = { out: (line) => log.write(line + '\n'), err: (line) => log.write(line + '\n') };
  const llm = request.scenario ? `scripted:${request.scenario}` : request.llm;
  try {
    if (state.kind === 'resumable') {
      const exitCode = await runCommands().resume(projectDir, { allowUnsandboxed: request.allowUnsandboxed, yes: false }, io);
      return { exitCode, error: null, action: 'resumed' };
    }
    const options = {
      name: request.name,
      out: request.out,
      llm,
      model: request.model,
      // A folder without a run record holds nothing a run made: it is started again.
      force: state.kind === 'unstarted',
      allowUnsandboxed: request.allowUnsandboxed,
      sops: request.sops,
      roles: request.roles,
      concurrency: '4',
      engineers: '1',
      yes: false,
    };
    const exitCode = await runCommands().run([request.spec], options, io);
    return { exitCode, error: null, action: 'started' };
  } catch (error) {
    io.err(`error ${describeError(error)}`);
    return { exitCode: SopworksError.isInstance(error) ? 2 : 1, error: describeError(error), action: state.kind === 'resumable' ? 'resumed' : 'started' };
  } finally {
    await new Promise<void>((resolve) => log.end(resolve));
  }
}
