/**
 * Ctrl-C: the first SIGINT lets the steps in flight finish and stops the run (outcome `interrupted`);
 * a second stops at once. Both leave a run that `sopworks resume` continues. The output's reader going
 * away (`sopworks run … | head`) counts as the first: nobody would see the rest of the run.
 */
import type { StopSignals } from '../../engine/run/index.ts';
import { consoleOutput, outputClosed } from './output.ts';

export function installStopSignals(): { signals: StopSignals; dispose: () => void } {
  const soft = new AbortController();
  const hard = new AbortController();
  const onSigint = () => {
    if (!soft.signal.aborted) soft.abort();
    else hard.abort();
  };
  const onOutputClosed = () => {
    if (soft.signal.aborted) return;
    consoleOutput.err(
      'notice: the output was closed (its reader went away): stopping after the steps in flight; `sopworks resume <project folder>` continues the run.',
    );
    // The reason is the outcome's: the run was not stopped by the user (decide-outcome.ts).
    soft.abort('the output was closed (its reader went away)');
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
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
