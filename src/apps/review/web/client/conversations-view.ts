/** Each artifact's conversation: drafts, reviews, revisions as diffs, publications, bugs and decisions, in order. */
import type { Commit, CommitAnswer, Thread, ThreadEntry } from '../../server/api-types.ts';
import { getJson, runUrl } from './api.ts';
import { roleChip } from './badges.ts';
import { diffView } from './diff-view.ts';
import { fill, h, onDemand } from './dom.ts';
import { loadExchange } from './exchanges-view.ts';
import { humanTime, short } from './format.ts';

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

const ENTRY_VERB: Record<ThreadEntry['kind'], (e: ThreadEntry) => string> = {
  draft: () => 'wrote the first draft',
  review: (e) => (e.approved === null ? 'reviewed it' : e.approved ? 'approved it' : `asked for changes (${plural(e.issues.length, 'issue')})`),
  revision: () => 'revised it',
  fix: () => 'fixed it',
  published: () => 'published it',
  bug: () => 'reported a bug in it',
  decision: (e) => (e.approved ? 'approved it' : 'rejected it'),
};

function threadEntry(name: string, e: ThreadEntry): HTMLLIElement {
  const index = e.exchange;
  const exchange =
    index === null
      ? null
      : onDemand(h('details', { class: 'exchange-link' }, h('summary', {}, `model exchange #${index + 1}`)), () => loadExchange(name, index));
  return h(
    'li',
    { class: `entry entry-${e.kind}`, dataset: { kind: e.kind } },
    h(
      'p',
      { class: 'entry-head' },
      roleChip(e.who),
      ' ',
      h('strong', {}, ENTRY_VERB[e.kind](e)),
      e.at ? h('span', { class: 'muted' }, ` · ${humanTime(e.at)}`) : null,
      e.messageId ? [' · ', h('a', { href: `#${e.messageId}` }, e.messageId)] : null,
    ),
    e.issues.length
      ? h(
          'ul',
          { class: 'issues' },
          e.issues.map((i) => h('li', {}, i)),
        )
      : null,
    e.text ? h('p', { class: 'entry-text' }, e.text) : null,
    e.diff ? h('details', { class: 'changes', open: true }, h('summary', {}, e.kind === 'fix' ? 'The fix' : 'The revision'), diffView(e.diff)) : null,
    exchange,
  );
}

export function renderConversations(el: HTMLElement, name: string, threads: Thread[]): void {
  if (threads.length === 0) {
    fill(el, h('p', { class: 'muted' }, 'No conversation yet.'));
    return;
  }
  fill(
    el,
    threads.map((t) =>
      h(
        'details',
        { class: 'card thread', id: `thread-${t.subject}`, dataset: { key: `thread:${t.subject}`, subject: t.subject } },
        h('summary', {}, h('code', {}, t.subject), ' ', h('span', { class: `badge ${/left|rejected|not published/.test(t.status) ? 'bad' : 'ok'}` }, t.status)),
        h(
          'ol',
          { class: 'thread-entries' },
          t.entries.map((e) => threadEntry(name, e)),
        ),
      ),
    ),
  );
}

/** Appends the commits not shown yet; a commit's diff is fetched when it is opened. */
export function appendCommits(list: HTMLElement, name: string, commits: Commit[]): void {
  const shown = new Set([...list.querySelectorAll<HTMLLIElement>(':scope > li')].map((li) => li.dataset.hash));
  for (const c of commits) {
    if (shown.has(c.hash)) continue;
    const details = h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: 'hash' }, short(c.hash)),
        ' ',
        h('span', { class: 'subject' }, c.subject),
        ' ',
        h('span', { class: 'muted' }, `${c.author} · ${plural(c.files.length, 'file')}`),
      ),
      c.messageId ? h('p', { class: 'muted' }, 'Committed for ', h('a', { href: `#${c.messageId}` }, c.messageId)) : null,
    );
    onDemand(details, async () => diffView((await getJson<CommitAnswer>(`${runUrl(name)}/commits/${c.hash}`)).diff));
    list.append(h('li', { id: `commit-${c.hash}`, dataset: { hash: c.hash } }, details));
  }
}
