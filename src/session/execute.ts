/**
 * A prepared run, executed: the part of the request the settings and the hooks decide (the price, the
 * person, the sandbox, the lease), the stop signals with the request's time limit, and what the run came
 * to (session-result.ts). Errors a run throws are the caller's (exit-code.ts maps them).
 */
import { type Price, type Provider, readSettings, type Settings } from '../capabilities/model/index.ts';
import type { CommonRequest, LlmRecord, RunResult } from '../company/index.ts';
import type { StopSignals } from '../engine/run/index.ts';
import { sandboxSettings } from '../host/sandbox/index.ts';
import type { SessionHooks } from './hooks.ts';
import { priceOf, worstReplyTokens } from './model-choice.ts';
import { type SessionCommand, type SessionResult, sessionResult } from './session-result.ts';

/** The flags every run takes alike, as its request was checked. */
export interface SessionFlags {
  record?: string | undefined;
  allowUnsandboxed: boolean;
  maxTime: { ms: number; text: string } | null;
}

/** What `execute` hands a prepared run's start: the request's common part, the events and the stop signals. */
export type RunBasics = Required<
  Pick<CommonRequest, 'price' | 'maxOutputTokens' | 'recordTo' | 'askPerson' | 'answerPerson' | 'maxRepairs' | 'sandbox' | 'lease' | 'onEvent' | 'stop'>
>;

/** A run checked and ready: nothing of it is written until `execute`. */
export interface PreparedRun {
  command: SessionCommand;
  /** The folder the run works in (made by `execute` for a start or a change). */
  projectDir: string;
  provider: Provider;
  llm: LlmRecord;
  settings: Settings;
  flags: SessionFlags;
  /** Commands the result suggests besides the outcome's (a change's diff), and lines said after it (which may depend on how it ended). */
  next: string[];
  after: string[] | ((run: RunResult) => Promise<string[]>);
  /** Writes what the run needs and runs it: called once, by `execute`. */
  start(basics: RunBasics, hooks: SessionHooks): Promise<RunResult>;
}

export async function execute(prepared: PreparedRun, hooks: SessionHooks): Promise<SessionResult> {
  const { settings, flags, llm, provider } = prepared;
  const price: Price | null = priceOf(llm, settings);
  const stop: StopSignals = {
    ...hooks.stop,
    // AbortSignal.timeout holds no reference that keeps the process alive once the run is over.
    deadline: flags.maxTime ? { signal: AbortSignal.timeout(flags.maxTime.ms), limit: flags.maxTime.text } : undefined,
  };
  const run = await prepared.start(
    {
      price,
      maxOutputTokens: worstReplyTokens(llm, settings, provider),
      recordTo: flags.record ?? null,
      askPerson: hooks.askPerson ?? null,
      answerPerson: hooks.answerPerson ?? null,
      maxRepairs: settings.maxRepairs,
      sandbox: sandboxSettings(settings.sandbox, flags.allowUnsandboxed),
      lease: hooks.lease ?? null,
      onEvent: hooks.onEvent ?? (() => {}),
      stop,
    },
    hooks,
  );
  const result = sessionResult(prepared.command, run, prepared.next);
  const after = typeof prepared.after === 'function' ? await prepared.after(run) : prepared.after;
  return { ...result, lines: [...result.lines, ...after] };
}

/** The settings a request is prepared with: the hooks', else the environment's. */
export const settingsOf = (hooks: SessionHooks): Settings => hooks.settings ?? readSettings();
