/** The board's messages in order, with role and type filters; a message's payload is fetched when opened. */
import type { MessageAnswer, TimelineEntry } from '../../server/api-types.ts';
import { getJson, runUrl } from './api.ts';
import { roleChip } from './badges.ts';
import { h, onDemand, scrollable } from './dom.ts';
import { humanTime, isoTitle, seconds } from './format.ts';

/** How many entries of a long list are drawn at a time; "Show more" draws the next lot. */
export const PAGE_SIZE = 200;

/**
 * A list drawn a page at a time: `entries` is everything known so far; what is drawn grows by
 * PAGE_SIZE when the reader asks, and new entries join at once only when everything before them is shown.
 */
export function pagedList<T>(list: HTMLElement, more: HTMLButtonElement, entries: readonly T[], draw: (entry: T) => Node, total = entries.length): void {
  const limit = Number(list.dataset.limit ?? PAGE_SIZE);
  const shown = list.children.length;
  for (const entry of entries.slice(shown, Math.max(limit, shown))) list.append(draw(entry));
  const left = total - list.children.length;
  // Nothing left, or a count not known yet: no button (never "Show 0 more").
  more.hidden = !(left > 0);
  more.textContent = left > 0 ? (left <= PAGE_SIZE ? `Show the last ${left}` : `Show ${PAGE_SIZE} more (${left} not shown)`) : '';
}

export interface TimelineToolbar {
  bar: HTMLDivElement;
  /** New roles and types join the choices as messages arrive. */
  learn(): void;
}

/** Role and type filters over the timeline: entries are hidden, not removed, so live appends keep their place. */
export function timelineToolbar(section: HTMLElement): TimelineToolbar {
  const filter = { role: 'all', type: 'all' };
  const roleSelect = h('select', { id: 'timeline-role' }, h('option', { value: 'all' }, 'all'));
  const typeSelect = h('select', { id: 'timeline-type' }, h('option', { value: 'all' }, 'all'));
  const shownCount = h('span', { class: 'muted', role: 'status' });
  const items = () => [...section.querySelectorAll<HTMLLIElement>('ol.timeline > li')];
  const apply = () => {
    const all = items();
    for (const li of all)
      li.hidden =
        (filter.role !== 'all' && li.dataset.from !== filter.role && li.dataset.to !== filter.role) ||
        (filter.type !== 'all' && li.dataset.type !== filter.type);
    const visible = all.filter((li) => !li.hidden).length;
    shownCount.textContent = visible === all.length ? '' : `${visible} of ${all.length} messages`;
  };
  const learn = () => {
    const roles = items().flatMap((li) => [li.dataset.from ?? '', li.dataset.to ?? '']);
    const types = items().map((li) => li.dataset.type ?? '');
    for (const [select, values] of [
      [roleSelect, roles.filter((v) => v !== 'all')],
      [typeSelect, types],
    ] as const) {
      const known = new Set([...select.options].map((o) => o.value));
      for (const v of [...new Set(values)].sort()) if (v && !known.has(v)) select.append(h('option', { value: v }, v));
    }
    apply();
  };
  roleSelect.addEventListener('change', () => {
    filter.role = roleSelect.value;
    apply();
  });
  typeSelect.addEventListener('change', () => {
    filter.type = typeSelect.value;
    apply();
  });
  const bar = h(
    'div',
    { class: 'toolbar' },
    h('label', { for: 'timeline-role' }, 'Role', roleSelect),
    h('label', { for: 'timeline-type' }, 'Type', typeSelect),
    shownCount,
  );
  return { bar, learn };
}

export function timelineEntry(name: string, entry: TimelineEntry): HTMLLIElement {
  const caused = entry.causedBy.length
    ? h(
        'p',
        {},
        'Caused by ',
        entry.causedBy.flatMap((id, i) => [i ? ', ' : '', h('a', { href: `#${id}` }, id)]),
      )
    : h('p', { class: 'muted' }, 'Caused by nothing earlier: the start of the run.');
  const details = h(
    'details',
    { dataset: { key: entry.id } },
    h(
      'summary',
      {},
      h('span', { class: 'seq' }, `#${entry.seq}`),
      h('span', { class: 'time' }, entry.offsetMs === null ? '' : `+${seconds(entry.offsetMs)}`),
      h('span', { class: 'who' }, roleChip(entry.from), ' → ', entry.to === 'all' ? h('span', { class: 'muted' }, 'all') : roleChip(entry.to)),
      h('span', { class: `type type-${entry.type}` }, entry.type),
      h('span', { class: 'text' }, entry.summary),
    ),
    h(
      'div',
      { class: 'detail' },
      caused,
      h('p', { class: 'muted' }, `${entry.id} · `, h('time', { datetime: entry.createdAt, title: isoTitle(entry.createdAt) }, humanTime(entry.createdAt))),
    ),
  );
  // The payload (a whole file, a report) is fetched when the message is opened.
  onDemand(
    details,
    async () =>
      scrollable('pre', { class: 'payload' }, JSON.stringify((await getJson<MessageAnswer>(`${runUrl(name)}/messages/${entry.id}`)).payload, null, 2)),
    details.querySelector('.detail') ?? details,
  );
  return h('li', { class: 'message', id: entry.id, dataset: { seq: String(entry.seq), type: entry.type, from: entry.from, to: entry.to } }, details);
}
