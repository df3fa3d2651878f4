/** The small marks the pages share: a role's chip, a run's state badge, and the error page. */
import type { LaunchView, RunStatus } from '../../server/api-types.ts';
import { ServerError } from './api.ts';
import { fill, h } from './dom.ts';
import { shownPhase } from './run-state.ts';

export { liveText, shownPhase } from './run-state.ts';

/** A role's hue, the same on every page and chart: from its name. */
export function hueOf(role: string): number {
  let hash = 0;
  for (const c of role) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return hash % 360;
}

/** A role's name in its colour. */
export function roleChip(role: string): HTMLSpanElement {
  const chip = h('span', { class: 'role' }, role);
  chip.style.setProperty('--hue', String(hueOf(role)));
  return chip;
}

/** The badge's colour for each phase of a run. */
const TONE: Record<RunStatus['phase']['phase'], string> = {
  running: 'running',
  done: 'ok',
  'awaiting-decision': 'waiting',
  stopped: 'stopped',
  failed: 'bad',
  'cut-off': 'stopped',
};

/** What a badge's tooltip adds to its words. */
const BADGE_TITLE: Partial<Record<RunStatus['phase']['phase'], string>> = {
  'awaiting-decision': 'A gated artifact waits for a person: approve or reject it, and the run goes on.',
  stopped: 'Stopped before the end: continuing it (`sopworks resume`) goes on from where it stopped.',
  'cut-off': 'No sopworks process is at work on it: `sopworks resume` continues it.',
  failed: 'Its SOP concluded it failed: a resumed run would end the same way; start a new run or request a change.',
};

/** Where a run stands, in words and a colour: true to the run (awaiting a decision is not "finished"). */
export function statusBadge(status: RunStatus, launch: LaunchView | null = null): HTMLSpanElement {
  const { phase, label } = shownPhase(status, launch);
  return h('span', { class: `badge ${TONE[phase]}`, dataset: { phase }, title: BADGE_TITLE[phase] ?? null }, label);
}

/** What went wrong, said as what happened: a server that is gone, a run that is not there, a run that cannot be read. */
function errorTitle(error: unknown): string {
  if (!(error instanceof ServerError)) return 'The page failed';
  if (error.status === 0) return "The viewer's server is not answering";
  if (error.status === 404) return 'Not found';
  if (error.status >= 500) return 'The server could not read this';
  return 'The server refused this';
}

export function showError(app: HTMLElement, error: unknown): void {
  fill(
    app,
    h(
      'section',
      { class: 'error-page', role: 'alert' },
      h('h1', {}, errorTitle(error)),
      h('p', { class: 'error' }, error instanceof Error ? error.message : String(error)),
      error instanceof ServerError && error.hint ? h('p', {}, error.hint) : null,
      h('p', {}, h('a', { href: '/' }, 'Back to the runs')),
    ),
  );
}
