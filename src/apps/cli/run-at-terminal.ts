/**
 * `sopworks run`, `change` and `resume`: the request made of the command line's words and flags (the
 * session's schemas declare both, src/session/), prepared and executed through the session with what a
 * terminal brings — its output (a status line, or JSON lines under --json), the person at it (approvals,
 * questions, standard input), Ctrl-C as a stop signal (an output closed early stops nothing), the run's traces — and
 * the report whose outcome gives the exit code.
 */

import {
  type ChangeAsk,
  execute,
  type PreparedRun,
  prepareChange,
  prepareResume,
  prepareStart,
  type ResumeAsk,
  type SessionCommand,
  type SessionHooks,
  type StartAsk,
} from '../../session/index.ts';
import { commandOutput, LiveStatus, reportRun } from '../console/index.ts';
import { tracedRun } from '../tracing/index.ts';
import { terminalPerson } from './approval-prompt.ts';
import type { Output } from './output.ts';
import { installStopSignals } from './stop-signals.ts';

/** What each command asks, as the session's request. */
export type TerminalAsk = { command: 'run'; ask: StartAsk } | { command: 'change'; ask: ChangeAsk } | { command: 'resume'; ask: ResumeAsk };

function prepare(asked: TerminalAsk, hooks: SessionHooks): Promise<PreparedRun> {
  if (asked.command === 'run') return prepareStart(asked.ask, hooks);
  if (asked.command === 'change') return prepareChange(asked.ask, hooks);
  return prepareResume(asked.ask, hooks);
}

/** Runs the request at this terminal and returns its exit code; `json`: JSON lines on stdout (--json). */
export async function runAtTerminal(asked: TerminalAsk, json: boolean, terminal: Output): Promise<number> {
  const command: SessionCommand = asked.command;
  const at = terminal.terminal;
  const live = json || !at?.statusLine ? null : LiveStatus.forTerminal();
  // Progress lines fit a terminal's width; a pipe or a file gets them whole.
  const output = commandOutput(live ? live.wrap(terminal) : terminal, json, command, live, () => (at?.statusLine ? at.columns : undefined));
  try {
    const hooks: SessionHooks = { lines: output.human, readStdin: at?.readStdin };
    const prepared = await prepare(asked, hooks);
    const { signals, dispose } = installStopSignals(prepared.projectDir);
    try {
      const person = terminalPerson(at?.person ?? false, Boolean((asked.ask as { yes?: boolean }).yes));
      const result = await tracedRun(
        command === 'resume' ? 'resume' : 'run',
        (line) => output.human.err(line),
        output.progress,
        (onEvent) => execute(prepared, { ...hooks, ...person, stop: signals, onEvent }),
      );
      live?.close();
      await reportRun(result, prepared.provider.label, output);
      return result.exitCode;
    } finally {
      dispose();
    }
  } finally {
    live?.close();
  }
}
