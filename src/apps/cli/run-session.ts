/**
 * A run's session, as `run`, `change` and `resume` (and through them `eval` and the queue's workers) hold
 * it once their input is checked: the output (a status line on a terminal, JSON lines under --json), the
 * part of the request the settings and flags decide (src/company/run-request.ts `CommonRequest`), Ctrl-C
 * and --max-time, the run's traces, and the report whose outcome gives the exit code.
 */
import type { Settings } from '../../capabilities/model/index.ts';
import type { Provider } from '../../capabilities/model/index.ts';
import type { RunResult } from '../../company/index.ts';
import type { RunEvent } from '../../company/index.ts';
import type { CommonRequest, StartRequest } from '../../company/index.ts';
import { startRun } from '../../company/index.ts';
import type { Gate } from '../../capabilities/approvals/index.ts';
import type { LlmRecord } from '../../company/index.ts';
import type { StopSignals } from '../../engine/run/index.ts';
import { sandboxSettings } from '../../host/sandbox/index.ts';
import { terminalPerson } from './approval-prompt.ts';
import { commandOutput, type CommandOutput, type RunCommandName } from './command-output.ts';
import { deadlineOf } from './deadline.ts';
import { LiveStatus } from './live-status.ts';
import type { Output } from './output.ts';
import { priceOf, worstReplyTokens } from './price-of.ts';
import { reportRun } from './report-run.ts';
import { installStopSignals } from './stop-signals.ts';
import { withTracing } from './with-tracing.ts';

/** The flags every run command takes alike (as parse-options checked them). */
export interface SessionFlags {
  json: boolean;
  record?: string | undefined;
  allowUnsandboxed: boolean;
  maxTime: { ms: number; text: string } | null;
  /** `--yes`: nobody is expected at the terminal for questions (they wait for the workbench). */
  yes?: boolean;
}

export interface RunSession<F extends SessionFlags = SessionFlags> {
  command: RunCommandName;
  flags: F;
  /** Lines for a person, and the run's progress (or JSON lines). */
  output: CommandOutput;
  /** The terminal's status line, when there is one. */
  live: LiveStatus | null;
}

/** Opens the session's output: on a terminal (and without --json), a status line shows each model call below the progress lines. */
export function openRunSession<F extends SessionFlags>(command: RunCommandName, flags: F, terminal: Output): RunSession<F> {
  const live = flags.json ? null : LiveStatus.forTerminal();
  return { command, flags, output: commandOutput(live ? live.wrap(terminal) : terminal, flags.json, command, live), live };
}

/** The request's part the settings and the flags decide, alike for a start, a change and a resume. */
export function requestOfSettings(
  session: RunSession,
  settings: Settings,
  llm: LlmRecord,
  provider: Provider,
): Required<Pick<CommonRequest, 'price' | 'maxOutputTokens' | 'recordTo' | 'askPerson' | 'answerPerson' | 'maxRepairs' | 'sandbox'>> {
  return {
    price: priceOf(llm, settings),
    maxOutputTokens: worstReplyTokens(llm, settings, provider),
    recordTo: session.flags.record ?? null,
    ...terminalPerson(session.flags.yes ?? false),
    maxRepairs: settings.maxRepairs,
    sandbox: sandboxSettings(settings.sandbox, session.flags.allowUnsandboxed),
  };
}

/**
 * Runs `go` under Ctrl-C and the time limit, traced, and reports its outcome; returns the exit code.
 * `next`: more commands the report suggests (a change's diff).
 */
export async function runInSession(
  session: RunSession,
  provider: Provider,
  go: (onEvent: (event: RunEvent) => void, stop: StopSignals) => Promise<RunResult>,
  next: string[] = [],
): Promise<number> {
  const { signals, dispose } = installStopSignals();
  const stop = { ...signals, deadline: deadlineOf(session.flags.maxTime) };
  try {
    const result = await withTracing(session.command === 'resume' ? 'resume' : 'run', session.output.human, session.output.progress, (onEvent) =>
      go(onEvent, stop),
    );
    session.live?.close();
    return await reportRun(result, provider.label, session.output, session.command, next);
  } finally {
    session.live?.close();
    dispose();
  }
}

/** The flags a new run (`run`, `change`) takes beyond the session's: the gates to hold and the limits. */
export interface StartFlagValues extends SessionFlags {
  approve: Gate[];
  yes: boolean;
  budget: number | null;
  maxTokens: number | null;
  /** `--clarify` (run, change): the roles may ask the person questions first. */
  clarify?: boolean;
}

/** What a start request needs beyond what the settings and the flags decide. */
export type StartPieces = Pick<StartRequest, 'spec' | 'project' | 'instructions' | 'projectDir' | 'company' | 'provider' | 'llm' | 'policy'>;

/** Starts a run in the session: its request built here, from the pieces, the settings and the flags. */
export function startInSession(
  session: RunSession<StartFlagValues>,
  settings: Settings,
  pieces: StartPieces,
  more: Pick<StartRequest, 'concurrency' | 'engineers' | 'until' | 'change'> = {},
  next: string[] = [],
): Promise<number> {
  const { flags } = session;
  return runInSession(
    session,
    pieces.provider,
    (onEvent, stop) =>
      startRun({
        ...requestOfSettings(session, settings, pieces.llm, pieces.provider),
        ...pieces,
        ...more,
        budget: { usd: flags.budget, tokens: flags.maxTokens },
        approvals: { gates: flags.approve, yes: flags.yes, clarify: flags.clarify ?? false },
        onEvent,
        stop,
      }),
    next,
  );
}
