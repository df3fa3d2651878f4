/**
 * What a limit that resets later is told as: the error that stops a call (`MODEL_QUOTA`, carrying when
 * to resume: the run then ends `paused`), and the notice of a wait when SOPWORKS_WAIT_FOR_QUOTA asks to
 * wait it out. Both say when, in UTC and from now, and who said so.
 */
import { SopworksError } from '../../ground/errors.ts';
import type { QuotaReset } from './quota-reset.ts';

/** "14:02:05 UTC (in 7 min)", or with the date when it is not today's. */
export function whenItResets(at: number, now = Date.now()): string {
  const iso = new Date(at).toISOString();
  const today = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10);
  const clock = `${today ? '' : `${iso.slice(0, 10)} `}${iso.slice(11, 19)} UTC`;
  return `${clock} (in ${lapse(at - now)})`;
}

/** A wait in the unit a person would say it in. */
export function lapse(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

const said = (reset: QuotaReset | null) => (reset ? ` — by ${reset.source}` : '');

/** The call stops: the run ends paused, and says when to go on. */
export function quotaError(
  where: string,
  during: string,
  reason: string,
  serverWords: string,
  at: number,
  reset: QuotaReset | null,
  cause: unknown,
): SopworksError {
  return new SopworksError(
    'MODEL_QUOTA',
    `The model endpoint ${where} is at its limit during ${during} (${reason}: ${serverWords}); it resets at ${whenItResets(at)}${said(reset)}.`,
    {
      hint: `Go on after ${new Date(at).toISOString()}: \`sopworks resume <project folder>\` continues from this step. Or set SOPWORKS_WAIT_FOR_QUOTA=true to wait for the reset instead of stopping.`,
      resumeAt: new Date(at).toISOString(),
      cause,
    },
  );
}

/** The notice of a wait for a reset (SOPWORKS_WAIT_FOR_QUOTA). */
export function quotaWaitNotice(where: string, during: string, reason: string, until: number, reset: QuotaReset | null): string {
  return (
    `The model endpoint ${where} is at its limit during ${during} (${reason}): paused until ${whenItResets(until)}${said(reset)}, ` +
    'as SOPWORKS_WAIT_FOR_QUOTA asks; the run goes on then. Ctrl-C stops it here, and `sopworks resume` continues it.'
  );
}
