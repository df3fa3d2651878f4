/** A search over the run's messages, files and model exchanges (answered by the server). */
import type { SearchAnswer, SearchHit } from '../../server/api-types.ts';
import { getJson, runUrl } from './api.ts';
import { fill, h, messageOf } from './dom.ts';

/** Where a search hit links: a message in the timeline, a file in Code, an exchange. */
const hitHref = (hit: SearchHit): string =>
  hit.kind === 'message' ? `#${hit.target}` : hit.kind === 'file' ? `#file-${hit.target}` : `#exchange-${hit.target}`;

function hitsView(q: string, answer: SearchAnswer): HTMLElement[] {
  const n = answer.hits.length;
  const heading = h('p', {}, n === 0 ? `Nothing matches “${q}”.` : `${n}${answer.truncated ? '+' : ''} match${n === 1 ? '' : 'es'} for “${q}”:`);
  if (n === 0) return [heading];
  const list = h(
    'ul',
    { class: 'hits' },
    answer.hits.map((hit) =>
      h(
        'li',
        { dataset: { kind: hit.kind } },
        h('span', { class: 'badge' }, hit.kind),
        ' ',
        h('a', { href: hitHref(hit) }, hit.title),
        h('div', { class: 'muted snippet' }, hit.snippet),
      ),
    ),
  );
  return [heading, list];
}

export function searchBox(name: string): HTMLElement {
  const input = h('input', { type: 'search', id: 'run-search', name: 'q', minlength: '2', placeholder: 'a word, a file name, an error…' });
  const results = h('div', { class: 'search-results', role: 'status' });
  const form = h(
    'form',
    { class: 'toolbar search', role: 'search' },
    h('label', { for: 'run-search' }, 'Search this run'),
    input,
    h('button', { type: 'submit' }, 'Search'),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const q = input.value.trim();
    if (q.length < 2) {
      fill(results, h('p', { class: 'muted' }, 'Give at least 2 characters.'));
      return;
    }
    fill(results, h('p', { class: 'muted' }, 'Searching…'));
    try {
      fill(results, hitsView(q, await getJson<SearchAnswer>(`${runUrl(name)}/search?q=${encodeURIComponent(q)}`)));
    } catch (error) {
      fill(results, h('p', { class: 'error' }, messageOf(error)));
    }
  });
  return h('section', { class: 'search-section', 'aria-label': 'Search' }, form, results);
}
