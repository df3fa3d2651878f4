/**
 * Where the CLI writes, and the exit codes it returns (documented in the README). Every line leaves
 * through `terminalSafe` (src/ground/terminal-text.ts): whatever a command composed, no control
 * character but its newlines, tabs and sopworks' own colours reaches the terminal.
 */
import { terminalSafe } from '../../ground/terminal-text.ts';

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const EXIT = {
  done: 0,
  failed: 1,
  usage: 2,
  budgetExhausted: 3,
  awaitingApproval: 4,
  paused: 5,
  /** Delivered, but a P0 acceptance criterion has no passing test (or accepted check): the spec is not met. */
  criteriaUnmet: 6,
  /** The time limit (`--max-time`) was reached; as GNU timeout says it. */
  timedOut: 124,
  interrupted: 130,
} as const;

const closing = new AbortController();

/**
 * Fires once stdout or stderr can no longer be written — its reader went away (`sopworks run … | head -3`
 * after three lines, a pager quit early). Node reports that as an 'error' on the stream (EPIPE) which,
 * unhandled, would kill a run mid-step with a stack trace. Instead the lines for that stream are dropped
 * from then on, and a run stops as at the first Ctrl-C (stop-signals.ts): resumable, nothing lost.
 */
export const outputClosed: AbortSignal = closing.signal;

const watched = new WeakSet<NodeJS.WriteStream>();

function writeLine(stream: NodeJS.WriteStream, line: string): void {
  if (!watched.has(stream)) {
    watched.add(stream);
    stream.on('error', () => {
      if (!closing.signal.aborted) closing.abort();
    });
  }
  // A stream that failed is destroyed by Node: writing to it again would only fail again.
  if (!stream.destroyed) stream.write(terminalSafe(line) + '\n');
}

export const consoleOutput: Output = {
  out: (line) => writeLine(process.stdout, line),
  err: (line) => writeLine(process.stderr, line),
};
