/**
 * Ctrl-C: the first SIGINT lets the steps in flight finish and stops the run (outcome `interrupted`);
 * a second stops at once. Both leave a run that `sopworks resume` continues.
 */
import type { StopSignals } from '../company/Company.ts';

export function installStopSignals(): { signals: StopSignals; dispose: () => void } {
  const soft = new AbortController();
  const hard = new AbortController();
  const onSigint = () => {
    if (!soft.signal.aborted) soft.abort();
    else hard.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  return {
    signals: { soft: soft.signal, hard: hard.signal },
    dispose: () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
    },
  };
}
