/** Model usage as an inline SVG bar chart: prompt and completion tokens stacked per row. Pure. */
import { escapeHtml } from './markdown-html.ts';
import type { UsageRow } from './usage-summary.ts';

const LABEL_WIDTH = 200;
const BAR_WIDTH = 360;
const VALUE_WIDTH = 150;
const ROW_HEIGHT = 24;
const TOP = 28;

export function usageChartSvg(rows: readonly UsageRow[], title: string): string {
  const max = Math.max(1, ...rows.map((r) => r.promptTokens + r.completionTokens));
  const width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH;
  const height = TOP + rows.length * ROW_HEIGHT + 8;
  const scale = (tokens: number) => (tokens / max) * BAR_WIDTH;
  const bars = rows.map((r, i) => {
    const y = TOP + i * ROW_HEIGHT;
    const prompt = scale(r.promptTokens);
    const completion = scale(r.completionTokens);
    const tip = `${r.name}: ${r.calls} calls, ${r.promptTokens} prompt + ${r.completionTokens} completion tokens${r.repairs ? `, ${r.repairs} re-asks` : ''}`;
    return [
      `<g class="usage-row"><title>${escapeHtml(tip)}</title>`,
      `<text x="${LABEL_WIDTH - 8}" y="${y + 16}" text-anchor="end">${escapeHtml(r.name)}</text>`,
      `<rect class="prompt" x="${LABEL_WIDTH}" y="${y + 4}" width="${prompt.toFixed(1)}" height="${ROW_HEIGHT - 8}"/>`,
      `<rect class="completion" x="${(LABEL_WIDTH + prompt).toFixed(1)}" y="${y + 4}" width="${completion.toFixed(1)}" height="${ROW_HEIGHT - 8}"/>`,
      `<text x="${(LABEL_WIDTH + prompt + completion + 6).toFixed(1)}" y="${y + 16}">${r.promptTokens + r.completionTokens}</text>`,
      `</g>`,
    ].join('');
  });
  return [
    `<svg class="usage-chart" xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
    `<title>${escapeHtml(title)}</title>`,
    `<rect class="prompt" x="${LABEL_WIDTH}" y="6" width="12" height="12"/><text x="${LABEL_WIDTH + 18}" y="16">prompt tokens</text>`,
    `<rect class="completion" x="${LABEL_WIDTH + 130}" y="6" width="12" height="12"/><text x="${LABEL_WIDTH + 148}" y="16">completion tokens</text>`,
    ...bars,
    `</svg>`,
  ].join('\n');
}
