/**
 * session: its public face — one typed way into a run for every front end. The requests' schemas (and
 * the flags made from them) load at once: the CLI declares its options from them at every start. What
 * prepares and executes a run loads the company when it is first called, so `--help` stays fast.
 */
import type { ChaosSettings } from '../capabilities/model/index.ts';
import type { ChangeAsk } from './change-ask.ts';
import type { PreparedRun } from './execute.ts';
import type { SessionHooks } from './hooks.ts';
import type { ResumeAsk } from './resume-ask.ts';
import type { SessionResult } from './session-result.ts';
import type { StartAsk } from './start-ask.ts';

export { ChangeAsk, type CheckedChangeAsk } from './change-ask.ts';
export { type AskedCommand, commandLineOf } from './command-line.ts';
export type { PreparedRun } from './execute.ts';
export { EXIT, exitCodeOfError, exitCodeOfOutcome } from './exit-code.ts';
export { type FlagLine, flagName, flagsOf } from './flag.ts';
export { chaosRate, chaosSeed, duration, numberFlag, positiveInteger, positiveNumber, wholeNumberIn } from './flag-values.ts';
export type { Lines, SessionHooks } from './hooks.ts';
export { parseRequest } from './parse-request.ts';
export { type OpenQuestions, questionLines } from './question-lines.ts';
export { type CheckedResumeAsk, ResumeAsk } from './resume-ask.ts';
export type { SessionCommand, SessionResult } from './session-result.ts';
export { checkSpec, MAX_SPEC, readSpecInput } from './spec-input.ts';
export { type CheckedStartAsk, MAX_ENGINEERS, QueuedFlagsAsk, StartAsk } from './start-ask.ts';

/** The gates `--approve` names, checked: an unknown one is refused, naming the gates there are. */
export const gatesOf = async (asked: string[] | null, command: string): Promise<string[]> => (await import('./prepare-company.ts')).gatesOf(asked, command);

/** Checks everything a new project's run may be refused for; writes nothing. */
export const prepareStart = async (asked: StartAsk, hooks: SessionHooks): Promise<PreparedRun> =>
  (await import('./prepare-start.ts')).prepareStart(asked, hooks);

/** Checks everything a change of a repository may be refused for; writes nothing. */
export const prepareChange = async (asked: ChangeAsk, hooks: SessionHooks): Promise<PreparedRun> =>
  (await import('./prepare-change.ts')).prepareChange(asked, hooks);

/** Checks everything a resume may be refused for; writes nothing. */
export const prepareResume = async (asked: ResumeAsk, hooks: SessionHooks): Promise<PreparedRun> =>
  (await import('./prepare-resume.ts')).prepareResume(asked, hooks);

/** The chaos `--chaos` and `--seed` ask for, or null; `--seed` alone is refused. */
export const chaosOf = async (asked: { chaos: number | null; seed: number | null }): Promise<ChaosSettings | null> =>
  (await import('./model-choice.ts')).chaosOf(asked);

/** Writes what a prepared run needs and runs it to its outcome. */
export const execute = async (prepared: PreparedRun, hooks: SessionHooks): Promise<SessionResult> => (await import('./execute.ts')).execute(prepared, hooks);
