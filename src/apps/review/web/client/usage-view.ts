/** Usage per role and per action: the server's charts, and the tables with cost where the run priced it. */
import type { RunPage, UsageRow } from '../../server/api-types.ts';
import { fill, h } from './dom.ts';
import { count, money } from './format.ts';

/** The column of the cached tokens: a phone shows the hit rate beside it alone (style.css). */
const CACHED = 3;

function usageTable(rows: UsageRow[], total: UsageRow, costFields: string[], first: string): HTMLTableElement {
  // Cost fields are recorded in US dollars (costUsd): shown as money, headed as a person would.
  const header = [
    first,
    'calls',
    'prompt tokens',
    'cached',
    'hit rate',
    'completion tokens',
    're-asks',
    ...costFields.map((c) => c.replace(/Usd$/, '').toLowerCase()),
  ];
  const cost = (r: UsageRow, c: string) => {
    const value = r.costs[c];
    return value === undefined ? '' : value === null ? 'unknown' : money(value);
  };
  const cells = (r: UsageRow) => [
    r.name,
    count(r.calls),
    count(r.promptTokens),
    // As the provider reported them: "—" where it said nothing of its cache.
    r.cacheHitRate === null ? '—' : count(r.cachedPromptTokens),
    r.cacheHitRate === null ? '—' : `${(100 * r.cacheHitRate).toFixed(1)}%`,
    count(r.completionTokens),
    count(r.repairs),
    ...costFields.map((c) => cost(r, c)),
  ];
  return h(
    'table',
    { class: 'usage' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        header.map((c, i) => h('th', { class: i === CACHED ? 'cached' : '' }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      [...rows, total].map((r) =>
        h(
          'tr',
          { class: r === total ? 'total' : '' },
          cells(r).map((c, i) => h('td', { class: i === CACHED ? 'num cached' : i ? 'num' : '' }, c)),
        ),
      ),
    ),
  );
}

export function renderUsage(el: HTMLElement, usage: RunPage['usage']): void {
  fill(
    el,
    usage.source === 'exchanges' ? h('p', { class: 'muted' }, 'So far: summed from the model exchanges while the run goes on.') : null,
    usage.costFields.length === 0 ? h('p', { class: 'muted' }, 'This run recorded no cost; tokens are shown.') : null,
    h('h3', {}, 'Per role'),
    h('div', { class: 'chart', html: usage.charts.byRole }),
    usageTable(usage.byRole, usage.total, usage.costFields, 'role'),
    h('h3', {}, 'Per action'),
    h('div', { class: 'chart', html: usage.charts.byAction }),
    usageTable(usage.byAction, usage.total, usage.costFields, 'role / action'),
  );
}
