/**
 * Progress of one model request, as the user sees it: the phase, the tokens written so far, their rate,
 * the prompt being read, and the time since the request was sent — at most one report a second (and at
 * every change of phase), whatever rate the provider tells at. On a CPU one reply can take many minutes;
 * the progress line (src/apps/console/progress.ts) and `--json`'s event stream show it while it lasts.
 */
import type { CallProgress } from './provider.ts';

export interface ProgressReport {
  phase: CallProgress['phase'];
  /** Reply tokens written so far. */
  tokens: number;
  /** Reply tokens a second since writing began; null before the first token. */
  tokensPerSecond: number | null;
  /** Prompt tokens read (not served from a cache), when the provider says. */
  promptTokens: number | null;
  /** Since the request was sent. */
  elapsedMs: number;
}

/** The least time between two reports of the same phase. */
export const REPORT_EVERY_MS = 1000;

/** A provider's `onProgress` that hands `report` the request's progress, throttled. */
export function progressReporter(report: (progress: ProgressReport) => void, now: () => number = Date.now): (progress: CallProgress) => void {
  const sent = now();
  let writingSince: number | null = null;
  let last: { phase: string; at: number } | null = null;
  let promptTokens: number | null = null;
  return (progress) => {
    const at = now();
    if (progress.promptTokens !== undefined) promptTokens = progress.promptTokens;
    if (progress.phase === 'writing' && writingSince === null) writingSince = at;
    if (last && last.phase === progress.phase && at - last.at < REPORT_EVERY_MS) return;
    last = { phase: progress.phase, at };
    const writing = writingSince === null ? 0 : (at - writingSince) / 1000;
    report({
      phase: progress.phase,
      tokens: progress.tokens,
      tokensPerSecond: writingSince !== null && writing > 0 ? progress.tokens / writing : null,
      promptTokens,
      elapsedMs: at - sent,
    });
  };
}
