/** The run's header — name, state, spec, facts — and the warnings about parts that could not be read. */
import type { LaunchView, RunPage } from '../../server/api-types.ts';
import { shownPhase, statusBadge } from './badges.ts';
import { type Child, fill, h } from './dom.ts';
import { count, elapsedMs, humanTime, longDuration, seconds } from './format.ts';

/** What the summary reads of the page: the merged sections, with the timeline's length. */
export type SummaryData = Pick<RunPage, 'name' | 'info' | 'costFacts' | 'usage' | 'status' | 'commits'> & { timelineTotal: number };

/** A number as one unbreakable word: it never wraps mid-digit. */
const num = (text: string) => h('span', { class: 'num' }, text);

/** Its real elapsed time, waiting included — to now while it works or waits for a person — and its time at work. */
function elapsedFact(page: SummaryData, launch: LaunchView | null): Child {
  const info = page.info;
  if (!info) return null;
  const phase = shownPhase(page.status, launch).phase;
  const open = phase === 'running' || phase === 'awaiting-decision';
  const elapsed = elapsedMs(info.startedAt, info.finishedAt, open);
  const atWork = info.wallMs === undefined ? null : [' (', num(seconds(info.wallMs)), ' of it at work)'];
  return [num(longDuration(elapsed)), open ? ' so far' : null, atWork];
}

export function renderSummary(el: HTMLElement, page: SummaryData, launch: LaunchView | null = null): void {
  const info = page.info;
  const facts: [string, Child][] = [];
  if (info) facts.push(['Model', info.model], ['Started', humanTime(info.startedAt)], ['Elapsed', elapsedFact(page, launch)]);
  for (const fact of page.costFacts) facts.push([fact.name, fact.value]);
  const total = page.usage.total;
  facts.push(
    ['Messages', num(count(page.timelineTotal))],
    ['Commits', num(count(page.commits.length))],
    ['Model calls', [num(count(total.calls)), ' (', num(count(total.promptTokens)), ' + ', num(count(total.completionTokens)), ' tokens)']],
  );
  fill(
    el,
    h('h1', {}, page.name, ' ', statusBadge(page.status, launch)),
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
