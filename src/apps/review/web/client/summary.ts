/** The run's header — name, state, spec, facts — and the warnings about parts that could not be read. */
import type { RunPage } from '../../server/api-types.ts';
import { statusBadge } from './badges.ts';
import { fill, h } from './dom.ts';
import { humanTime, seconds } from './format.ts';

/** What the summary reads of the page: the merged sections, with the timeline's length. */
export type SummaryData = Pick<RunPage, 'name' | 'info' | 'costFacts' | 'usage' | 'status' | 'commits'> & { timelineTotal: number };

export function renderSummary(el: HTMLElement, page: SummaryData): void {
  const info = page.info;
  const facts: [string, string][] = [];
  if (info) {
    facts.push(['Model', info.model], ['Started', humanTime(info.startedAt)]);
    if (info.wallMs !== undefined) facts.push(['Wall time', seconds(info.wallMs)]);
  }
  for (const fact of page.costFacts) facts.push([fact.name, fact.value]);
  const total = page.usage.total;
  facts.push(
    ['Messages', String(page.timelineTotal)],
    ['Commits', String(page.commits.length)],
    ['Model calls', `${total.calls} (${total.promptTokens} + ${total.completionTokens} tokens)`],
  );
  fill(
    el,
    h('h1', {}, page.name, ' ', statusBadge(page.status)),
    info ? h('p', { class: 'spec' }, info.spec) : null,
    page.status.reason ? h('span', { class: 'reason' }, page.status.reason) : null,
    h(
      'dl',
      { class: 'facts' },
      facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
    ),
  );
}

export function renderWarnings(el: HTMLElement, warnings: string[]): void {
  if (warnings.length === 0) {
    fill(el);
    return;
  }
  fill(
    el,
    h(
      'div',
      { class: 'warnings' },
      h('strong', {}, 'Parts of this run could not be read:'),
      h(
        'ul',
        {},
        warnings.map((w) => h('li', {}, w)),
      ),
    ),
  );
}
