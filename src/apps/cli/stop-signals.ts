/**
 * Ctrl-C: the first SIGINT lets the steps in flight finish and stops the run (outcome `interrupted`);
 * a second stops at once. Both leave a run that `sopworks resume` continues. The output's reader going
 * away (`sopworks run … | head`) stops nothing: nobody asked the run to stop, so it goes on with its lines
 * dropped (output.ts), ends as it would have, and says so once on whichever stream is still open.
 */
import path from 'node:path';
import type { StopSignals } from '../../engine/run/index.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { consoleOutput, outputClosed, watchOutputStreams } from './output.ts';

/** `projectDir`: the run's folder, named in the notice an output closed early gets (where to read how it ended). */
export function installStopSignals(projectDir: string): { signals: StopSignals; dispose: () => void } {
  const soft = new AbortController();
  const hard = new AbortController();
  const onSigint = () => {
    if (!soft.signal.aborted) soft.abort();
    else hard.abort();
  };
  const onOutputClosed = () => {
    // stderr may be the stream that closed (or both, `2>&1 | head`): then the notice is dropped like the rest.
    consoleOutput.err(
      `notice: the output was closed (its reader went away): the run goes on without showing its lines; \`sopworks status ${cleanLine(path.relative(process.cwd(), projectDir) || projectDir)}\` tells how it ends.`,
    );
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  watchOutputStreams();
  if (outputClosed.aborted) onOutputClosed();
  else outputClosed.addEventListener('abort', onOutputClosed, { once: true });
  return {
    signals: { soft: soft.signal, hard: hard.signal },
    dispose: () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
      outputClosed.removeEventListener('abort', onOutputClosed);
    },
  };
}

/**
 * A Ctrl-C typed at a prompt: the terminal is in raw mode there, so readline reads the key instead of
 * the process getting SIGINT. Handed on as the signal would be — a run stops as at any first Ctrl-C
 * (synchronously, before the prompt's step ends); with nobody listening, the process ends as Ctrl-C ends it.
 */
export function relayCtrlC(): void {
  if (process.listenerCount('SIGINT') > 0) process.emit('SIGINT', 'SIGINT');
  else process.kill(process.pid, 'SIGINT');
}
