/** Model exchanges: a summary line each, the prompt and reply fetched when one is opened. */
import type { ExchangeAnswer, ExchangeSummary } from '../../server/api-types.ts';
import { getJson, runUrl } from './api.ts';
import { roleChip } from './badges.ts';
import { h, onDemand, scrollable } from './dom.ts';
import { seconds } from './format.ts';

export function exchangeView(x: ExchangeAnswer): HTMLDivElement {
  return h(
    'div',
    { class: 'exchange-body' },
    x.messages.map((m) =>
      h(
        'div',
        { class: `chat ${m.role}` },
        h('div', { class: 'chat-role' }, m.role === 'assistant' ? 'earlier reply' : m.role),
        scrollable('pre', {}, m.content),
      ),
    ),
    h('div', { class: 'chat reply' }, h('div', { class: 'chat-role' }, `reply${x.finishReason ? ` (${x.finishReason})` : ''}`), scrollable('pre', {}, x.reply)),
    x.error ? h('p', { class: 'error' }, `Rejected: ${x.error}`) : null,
  );
}

/** Loads one exchange of a run whole, drawn. */
export const loadExchange = async (name: string, index: number): Promise<HTMLDivElement> =>
  exchangeView(await getJson<ExchangeAnswer>(`${runUrl(name)}/exchanges/${index}`));

export function exchangeItem(name: string, x: ExchangeSummary): HTMLLIElement {
  const details = h(
    'details',
    {},
    h(
      'summary',
      {},
      h('span', { class: 'seq' }, `#${x.index + 1}`),
      roleChip(x.role),
      h('span', { class: 'action' }, x.action),
      x.key ? h('code', {}, x.key) : null,
      x.attempt > 1 ? h('span', { class: 'badge' }, `re-ask ${x.attempt - 1}`) : null,
      h('span', { class: `badge ${x.ok ? 'ok' : 'bad'}` }, x.ok ? 'valid' : 'invalid'),
      h('span', { class: 'muted' }, `${x.promptTokens} → ${x.completionTokens} tokens${x.ms === null ? '' : ` · ${seconds(x.ms)}`}`),
    ),
  );
  onDemand(details, () => loadExchange(name, x.index));
  return h('li', { class: 'exchange', id: `exchange-${x.index}`, dataset: { index: String(x.index) } }, details);
}
