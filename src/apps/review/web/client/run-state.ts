/** The state a page says of a run, in words: pure, with no DOM, so the badge and the header say one thing. */
import type { LaunchView, RunStatus } from '../../server/api-types.ts';
import { humanTime } from './format.ts';

/**
 * The one state a page says of a run — its badge and its header line alike: a run this viewer started
 * is "starting…" until its process holds it (not still "waiting for you"), and a run paused at its
 * endpoint's limit says until when.
 */
export function shownPhase(status: RunStatus, launch: LaunchView | null = null): RunStatus['phase'] {
  if (launch !== null && launch.state !== 'ended' && !status.running) return { phase: 'running', label: 'starting…', continuable: false };
  if (status.phase.phase === 'stopped' && status.outcome === 'paused' && status.resumeAt) {
    return { ...status.phase, label: `paused until ${humanTime(status.resumeAt)}` };
  }
  return status.phase;
}

/** The header's line: the same state as the badge, "● live" while the page follows a run at work. */
export function liveText(status: RunStatus, launch: LaunchView | null = null): string {
  const shown = shownPhase(status, launch);
  switch (shown.phase) {
    case 'running':
      return status.running ? '● live' : shown.label;
    case 'done':
    case 'failed':
      return 'finished';
    default:
      return shown.label;
  }
}
