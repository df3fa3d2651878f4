/**
 * `--max-time`: a signal that fires when the run's time is up. The run loop then stops the steps in
 * flight at once — a model call is aborted, not waited for — and the run ends `timed-out`, resumable.
 */
import type { StopSignals } from '../../engine/run/index.ts';

export function deadlineOf(maxTime: { ms: number; text: string } | null): StopSignals['deadline'] {
  // AbortSignal.timeout holds no reference that keeps the process alive once the run is over.
  return maxTime ? { signal: AbortSignal.timeout(maxTime.ms), limit: maxTime.text } : undefined;
}
