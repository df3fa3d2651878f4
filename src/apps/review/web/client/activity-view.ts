/**
 * Who worked when: model calls as bars on a time axis, one row per role — and a role's calls that
 * overlapped (parallel Engineers) side by side on rows of their own — then the tokens used so far, on
 * the same axis.
 */
import type { ExchangeSummary } from '../../server/api-types.ts';
import { hueOf } from './badges.ts';
import { fill, h, svg } from './dom.ts';
import { seconds } from './format.ts';

interface Bar {
  x: ExchangeSummary;
  start: number;
  end: number;
}
interface Lane {
  role: string;
  n: number;
  end: number;
  bars: Bar[];
}

const W = 1000;
const LEFT = 170;
const ROW = 18;

const timeOf = (x: ExchangeSummary): number => Date.parse(x.at ?? '');

function lanesOf(timed: ExchangeSummary[], t0: number): Lane[] {
  const lanes: Lane[] = [];
  for (const x of timed) {
    const start = timeOf(x) - t0;
    const end = start + Math.max(x.ms ?? 0, 1);
    let lane = lanes.find((l) => l.role === x.role && l.end <= start);
    if (!lane) lanes.push((lane = { role: x.role, n: lanes.filter((l) => l.role === x.role).length + 1, end: 0, bars: [] }));
    lane.end = end;
    lane.bars.push({ x, start, end });
  }
  return lanes.sort((a, b) => a.role.localeCompare(b.role) || a.n - b.n);
}

function gantt(lanes: Lane[], calls: number, span: number, scale: (t: number) => number): SVGElement {
  const bar = ({ x, start, end }: Bar, i: number) =>
    svg(
      'rect',
      {
        x: scale(start),
        y: i * ROW + 3,
        width: Math.max(2, scale(end) - scale(start)),
        height: ROW - 6,
        rx: 2,
        fill: `hsl(${hueOf(x.role)} 55% 45%)`,
        class: x.ok ? 'bar' : 'bar invalid',
        'data-index': x.index,
      },
      svg(
        'title',
        {},
        `#${x.index + 1} ${x.role} ${x.action}${x.key ? ` ${x.key}` : ''}: +${seconds(start)}, ${x.ms === null ? '?' : seconds(x.ms)}, ${x.promptTokens + x.completionTokens} tokens`,
      ),
    );
  return svg(
    'svg',
    {
      viewBox: `0 0 ${W} ${lanes.length * ROW + 24}`,
      role: 'img',
      'aria-label': `Model calls over ${seconds(span)}: ${calls} calls on ${lanes.length} rows`,
      class: 'gantt',
    },
    lanes.map((lane, i) => [
      svg('text', { x: 4, y: i * ROW + 13, class: 'lane' }, lane.n === 1 ? lane.role : `${lane.role} (${lane.n})`),
      lane.bars.map((b) => bar(b, i)),
    ]),
    svg('text', { x: LEFT, y: lanes.length * ROW + 18, class: 'axis' }, '0s'),
    svg('text', { x: W - 10, y: lanes.length * ROW + 18, class: 'axis', 'text-anchor': 'end' }, seconds(span)),
  );
}

function tokensOverTime(timed: ExchangeSummary[], t0: number, span: number, scale: (t: number) => number): SVGElement {
  const ends = (x: ExchangeSummary) => timeOf(x) + (x.ms ?? 0);
  let total = 0;
  const points: { t: number; total: number }[] = [];
  for (const x of [...timed].sort((a, b) => ends(a) - ends(b))) {
    total += x.promptTokens + x.completionTokens;
    points.push({ t: ends(x) - t0, total });
  }
  const line = [`${scale(0)},110`, ...points.map((p) => `${scale(p.t).toFixed(1)},${(110 - (100 * p.total) / Math.max(1, total)).toFixed(1)}`)].join(' ');
  return svg(
    'svg',
    { viewBox: `0 0 ${W} 130`, role: 'img', 'aria-label': `Tokens used over time: ${total.toLocaleString('en-US')} in all`, class: 'tokens-over-time' },
    svg('polyline', { points: line, fill: 'none', stroke: '#4e79a7', 'stroke-width': 2 }),
    svg('text', { x: 4, y: 14, class: 'lane' }, `${total.toLocaleString('en-US')} tokens`),
    svg('text', { x: 4, y: 110, class: 'lane' }, '0'),
    svg('text', { x: W - 10, y: 126, class: 'axis', 'text-anchor': 'end' }, seconds(span)),
  );
}

export function renderActivity(el: HTMLElement, exchanges: ExchangeSummary[]): void {
  const timed = exchanges.filter((x) => x.at !== null && !Number.isNaN(timeOf(x)));
  if (timed.length === 0) {
    fill(el, h('p', { class: 'muted' }, 'No timed model calls yet.'));
    return;
  }
  const t0 = Math.min(...timed.map(timeOf));
  const span = Math.max(1, Math.max(...timed.map((x) => timeOf(x) - t0 + (x.ms ?? 0))));
  const scale = (t: number) => LEFT + ((W - LEFT - 10) * t) / span;
  fill(
    el,
    h('p', { class: 'muted' }, "Each bar is one model call (hover for what it was); a role's calls that ran at the same time get rows of their own."),
    h('div', { class: 'chart-frame', tabindex: '0', 'aria-label': 'model calls per role over time' }, gantt(lanesOf(timed, t0), timed.length, span, scale)),
    h('h3', {}, 'Tokens used over time'),
    h('div', { class: 'chart-frame', tabindex: '0', 'aria-label': 'tokens over time' }, tokensOverTime(timed, t0, span, scale)),
  );
}
