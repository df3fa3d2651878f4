/**
 * Where the CLI writes, and the exit codes it returns (documented in the README). Every line leaves
 * through `terminalSafe` (src/ground/terminal-text.ts): whatever a command composed, no control
 * character but its newlines, tabs and sopworks' own colours reaches the terminal.
 */
import { terminalSafe } from '../../ground/terminal-text.ts';
import { readAllStdin } from './standard-input.ts';

/** What the process's terminal offers a command that tells a run. */
export interface Terminal {
  /** A person is there (standard input and output are a terminal): approvals and questions are asked. */
  person: boolean;
  /** Standard output is a terminal: a status line shows the calls under way. */
  statusLine: boolean;
  /** Standard error is a terminal: a download's progress is one line redrawn there. */
  progressLine: boolean;
  /** The width of standard output, when it is a terminal. */
  columns: number | undefined;
  /** Standard input, read whole (a spec given as `-`). */
  readStdin(): Promise<Buffer>;
}

export interface Output {
  out(line: string): void;
  err(line: string): void;
  /** The terminal behind the lines, when they go to the process's own; none: nobody is there to ask, nothing to read. */
  terminal?: Terminal;
}

/** The exit codes are the session's (src/session/exit-code.ts): a run's outcome and an error's code decide them. */
export { EXIT } from '../../session/index.ts';

const closing = new AbortController();

/**
 * Fires once stdout or stderr can no longer be written — its reader went away (`sopworks run … | head -3`
 * after three lines, a pager quit early). Node reports that as an 'error' on the stream (EPIPE) which,
 * unhandled, would kill a run mid-step with a stack trace. Instead the lines for that stream are dropped
 * from then on, and a run goes on to its end (stop-signals.ts says so once): nobody asked it to stop.
 */
export const outputClosed: AbortSignal = closing.signal;

const watched = new WeakSet<NodeJS.WriteStream>();

function watch(stream: NodeJS.WriteStream): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on('error', () => {
    if (!closing.signal.aborted) closing.abort();
  });
}

/** Watches stdout and stderr before a run starts: a line written past `consoleOutput` (a provider's notice) then meets a closed pipe quietly too. */
export function watchOutputStreams(): void {
  watch(process.stdout);
  watch(process.stderr);
}

function writeLine(stream: NodeJS.WriteStream, line: string): void {
  watch(stream);
  // A stream that failed is destroyed by Node: writing to it again would only fail again.
  if (!stream.destroyed) stream.write(terminalSafe(line) + '\n');
}

const processTerminal: Terminal = {
  get person() {
    return Boolean(process.stdin.isTTY && process.stdout.isTTY);
  },
  get statusLine() {
    return Boolean(process.stdout.isTTY);
  },
  get progressLine() {
    return Boolean(process.stderr.isTTY);
  },
  get columns() {
    return process.stdout.isTTY ? process.stdout.columns : undefined;
  },
  readStdin: readAllStdin,
};

export const consoleOutput: Output = {
  out: (line) => writeLine(process.stdout, line),
  err: (line) => writeLine(process.stderr, line),
  terminal: processTerminal,
};
