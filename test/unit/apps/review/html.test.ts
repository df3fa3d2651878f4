/** HTML the viewer shows from what models wrote: markdown and charts carry no live markup. */
import assert from 'node:assert/strict';
import { markdownToHtml } from '../../../../src/apps/review/markdown-html.ts';
import { usageChartSvg } from '../../../../src/apps/review/usage-chart.ts';

describe('review: HTML for the viewer', () => {
  it('renders markdown: headings, tables, code', () => {
    const html = markdownToHtml('# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nlet x = 1 < 2;\n```\n');
    assert.match(html, /<h1>Title<\/h1>/);
    assert.match(html, /<td>1<\/td>/);
    assert.match(html, /<code class="language-js">let x = 1 &lt; 2;/);
  });

  it('shows raw HTML as text, so a model cannot inject script or handlers', () => {
    const html = markdownToHtml('Hi <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n<div onclick="x()">d</div>\n');
    assert.doesNotMatch(html, /<script|<img|<div/i);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
  });

  it('keeps http(s) and mailto links only, and never loads images', () => {
    const html = markdownToHtml(
      '[ok](https://example.org "t") [mail](mailto:a@b.c) [bad](javascript:alert(1)) [data](data:text/html,x) ![pic](http://tracker.example/p.png)',
    );
    assert.match(html, /<a href="https:\/\/example.org" title="t" target="_blank" rel="noopener noreferrer">ok<\/a>/);
    assert.match(html, /<a href="mailto:a@b.c"/);
    assert.doesNotMatch(html, /javascript:|data:text|<img/);
    assert.match(html, /bad/);
    assert.match(html, /<span class="image-alt">\[pic\]<\/span>/);
  });

  it('turns mermaid blocks into escaped sources for the page to draw', () => {
    const html = markdownToHtml('```mermaid\nflowchart LR\n  a["<b>x</b>"] --> b\n```\n');
    assert.equal(html.trim(), '<div class="diagram"><pre class="diagram-source">flowchart LR\n  a[&quot;&lt;b&gt;x&lt;/b&gt;&quot;] --&gt; b</pre></div>');
  });

  it('draws usage as stacked bars scaled to the largest row, with escaped labels', () => {
    const row = (name: string, promptTokens: number, completionTokens: number) => ({
      name,
      calls: 1,
      promptTokens,
      completionTokens,
      cachedPromptTokens: 0,
      cacheHitRate: null,
      repairs: 0,
      costs: {},
    });
    const svg = usageChartSvg([row('<pm>', 300, 100), row('qa', 100, 100)], 'Tokens per role');
    assert.match(svg, /^<svg class="usage-chart"/);
    assert.match(svg, /&lt;pm&gt;/);
    assert.doesNotMatch(svg, /<pm>/);
    const widths = [...svg.matchAll(/<rect class="(prompt|completion)" x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="16"\/>/g)].map((m) => Number(m[2]));
    assert.deepEqual(widths, [270, 90, 90, 90], 'the largest row spans the full bar width (360)');
    assert.match(usageChartSvg([], 'Empty'), /<title>Empty<\/title>/);
  });
});
