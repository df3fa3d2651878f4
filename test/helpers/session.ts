/**
 * A start, a change or a resume through the session (src/session/), in this process: the typed request
 * every front end gives, the lines a person would read kept, and the typed result — or the error that
 * refused it, with the exit code it would give. For tests about what a run does rather than how a
 * terminal shows it; the environment is the clean one of test/helpers/run-cli.ts.
 */
import {
  type ChangeAsk,
  execute,
  exitCodeOfError,
  type PreparedRun,
  prepareChange,
  prepareResume,
  prepareStart,
  type ResumeAsk,
  type SessionHooks,
  type SessionResult,
  type StartAsk,
} from '../../src/session/index.ts';
import { withEnvironment } from './in-process.ts';
import { cleanEnv } from './run-cli.ts';

export type Asked = { start: StartAsk } | { change: ChangeAsk } | { resume: ResumeAsk };

export interface SessionRun {
  result: SessionResult | null;
  /** What refused or broke the run, and the exit code it gives. */
  error: unknown;
  exitCode: number;
  /** The lines a person would read (notices, warnings, what the run does). */
  lines: string[];
}

function prepare(asked: Asked, hooks: SessionHooks): Promise<PreparedRun> {
  if ('start' in asked) return prepareStart(asked.start, hooks);
  if ('change' in asked) return prepareChange(asked.change, hooks);
  return prepareResume(asked.resume, hooks);
}

export async function inSession(asked: Asked, options: { env?: Record<string, string>; hooks?: Partial<SessionHooks> } = {}): Promise<SessionRun> {
  const lines: string[] = [];
  const hooks: SessionHooks = { ...options.hooks, lines: { out: (line) => lines.push(line), err: (line) => lines.push(line) } };
  return withEnvironment(cleanEnv(options.env), process.cwd(), async () => {
    try {
      const result = await execute(await prepare(asked, hooks), hooks);
      return { result, error: null, exitCode: result.exitCode, lines };
    } catch (error) {
      return { result: null, error, exitCode: exitCodeOfError(error), lines };
    }
  });
}
