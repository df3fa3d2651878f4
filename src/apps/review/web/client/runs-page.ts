/** The list of runs: filtered by state, sorted, and redrawn when the folder's runs change. */
import type { RunListing, RunsAnswer } from '../../server/api-types.ts';
import { getJson } from './api.ts';
import { showError, statusBadge } from './badges.ts';
import { type Attrs, type Child, fill, h, oneAtATime } from './dom.ts';
import { count, elapsedMs, humanTime, isoTitle, longDuration, money, shortModel } from './format.ts';

/** A run's state in one word, for filtering: its outcome, or whether it is at work or stopped. */
const stateOf = (run: RunListing): string =>
  run.problem ? 'unreadable' : run.status.finished ? (run.status.outcome ?? 'finished') : run.status.running ? 'in progress' : 'stopped';

/** How long a run took, waiting included — to now while it works or waits for a person. */
const elapsedOf = (run: RunListing): number | null =>
  elapsedMs(run.startedAt, run.finishedAt, run.status.running || run.status.phase.phase === 'awaiting-decision');

/** Runs that wait for a person first: what needs someone is at the top. */
const waitingFirst = (a: RunListing, b: RunListing): number =>
  Number(b.status.phase.phase === 'awaiting-decision') - Number(a.status.phase.phase === 'awaiting-decision');

type Order = (a: RunListing, b: RunListing) => number;
const newest: Order = (a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? '');
const RUN_SORTS: Record<string, [string, Order]> = {
  waiting: ['waiting for you first, then newest', (a, b) => waitingFirst(a, b) || newest(a, b)],
  newest: ['newest first', newest],
  oldest: ['oldest first', (a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? '')],
  longest: ['longest first', (a, b) => (elapsedOf(b) ?? -1) - (elapsedOf(a) ?? -1)],
  tokens: ['most tokens first', (a, b) => (b.tokens ?? -1) - (a.tokens ?? -1)],
  cost: ['most cost first', (a, b) => (b.costUsd ?? -1) - (a.costUsd ?? -1)],
  name: ['by name', (a, b) => a.name.localeCompare(b.name)],
};
const COLUMNS = ['run', 'outcome', 'spec', 'elapsed', 'calls', 'tokens', 'cost', 'messages', 'started', 'model'];

/** The list's filter and order, kept while the list redraws itself. */
const view: { state: string; sort: string; last: RunsAnswer | null } = { state: 'all', sort: 'waiting', last: null };

function runRow(run: RunListing): HTMLTableRowElement {
  const cell = (label: string, attrs: Attrs, ...content: Child[]) => h('td', { ...attrs, dataset: { label } }, ...content);
  return h(
    'tr',
    { class: 'run-row', dataset: { run: run.name, state: stateOf(run) } },
    cell('run', {}, h('a', { href: `/runs/${encodeURIComponent(run.name)}` }, run.name)),
    cell('outcome', {}, run.problem ? h('span', { class: 'badge bad' }, 'unreadable') : statusBadge(run.status)),
    cell('spec', { class: 'spec' }, run.problem ?? run.spec ?? ''),
    cell('elapsed', { class: 'num', title: run.wallMs === null ? null : `${longDuration(run.wallMs)} of it at work` }, longDuration(elapsedOf(run))),
    cell('calls', { class: 'num' }, count(run.calls)),
    cell('tokens', { class: 'num' }, count(run.tokens)),
    cell('cost', { class: 'num' }, money(run.costUsd)),
    cell('messages', { class: 'num' }, String(run.messages)),
    cell('started', { class: 'muted' }, h('time', { datetime: run.startedAt ?? null, title: isoTitle(run.startedAt) }, humanTime(run.startedAt))),
    cell('model', { class: 'muted model', title: run.model }, run.model ? shortModel(run.model) : ''),
  );
}

function select(id: string, label: string, value: string, options: [string, string][], onchange: (value: string) => void): HTMLLabelElement {
  return h(
    'label',
    { for: id },
    label,
    h(
      'select',
      { id, onchange: (e: Event) => onchange((e.target as HTMLSelectElement).value) },
      options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
    ),
  );
}

function toolbar(runs: RunListing[], redraw: () => void): HTMLDivElement {
  const states = [...new Set(runs.map(stateOf))].sort();
  if (view.state !== 'all' && !states.includes(view.state)) states.push(view.state);
  const choices: [string, string][] = [
    ['all', `all (${runs.length})`],
    ...states.map((st): [string, string] => [st, `${st} (${runs.filter((r) => stateOf(r) === st).length})`]),
  ];
  return h(
    'div',
    { class: 'toolbar' },
    select('runs-state', 'Outcome', view.state, choices, (v) => {
      view.state = v;
      redraw();
    }),
    select(
      'runs-sort',
      'Sort',
      view.sort,
      Object.entries(RUN_SORTS).map(([k, [text]]): [string, string] => [k, text]),
      (v) => {
        view.sort = v;
        redraw();
      },
    ),
  );
}

function renderRuns(app: HTMLElement, answer: RunsAnswer): void {
  view.last = answer;
  const focused = document.activeElement?.id;
  const { root, runs } = answer;
  const order = (RUN_SORTS[view.sort] ?? RUN_SORTS.waiting!)[1];
  const shown = runs.filter((run) => view.state === 'all' || stateOf(run) === view.state).sort(order);
  const redraw = () => view.last && renderRuns(app, view.last);
  const empty = h(
    'p',
    {},
    'No sopworks runs here yet. Make one with ',
    h('code', {}, 'sopworks run "…"'),
    ' (or the offline demo: ',
    h('code', {}, 'npm run demo'),
    ').',
  );
  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      COLUMNS.map((c, i) => h('th', { class: i >= 3 && i <= 7 ? 'num' : null, scope: 'col' }, c)),
    ),
  );
  fill(
    app,
    h('h1', {}, 'Runs'),
    h('p', { class: 'muted' }, `In ${root}`),
    runs.length === 0 ? empty : [toolbar(runs, redraw), h('table', { class: 'runs' }, head, h('tbody', {}, shown.map(runRow)))],
  );
  // Keep keyboard focus on the control that redrew the list.
  if (focused) document.getElementById(focused)?.focus();
}

export async function showRuns(app: HTMLElement, crumbs: HTMLElement): Promise<void> {
  document.title = 'Runs · sopworks';
  fill(crumbs, h('span', {}, 'runs'));
  const refresh = oneAtATime(async () => {
    try {
      renderRuns(app, await getJson<RunsAnswer>('/api/runs'));
    } catch (error) {
      showError(app, error);
    }
  });
  // New runs, and runs moving on, show up without a reload.
  new EventSource('/api/events').addEventListener('change', () => void refresh());
  await refresh();
}
