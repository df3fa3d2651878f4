/**
 * Markdown to HTML for the viewer (marked). What the models wrote is untrusted: raw HTML is shown as
 * text, links keep only http(s) and mailto targets, images become their alt text (the viewer loads
 * nothing from elsewhere), and mermaid blocks become placeholders the page draws as SVG.
 */
import { Marked, type Tokens } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const SAFE_LINK = /^(https?:|mailto:)/i;

/** The element the page turns into a drawn diagram: the mermaid source, escaped, in a <pre>. */
export const diagramPlaceholder = (source: string): string => `<div class="diagram"><pre class="diagram-source">${escapeHtml(source.trim())}</pre></div>`;

const marked = new Marked({
  gfm: true,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(text);
    },
    code({ text, lang }: Tokens.Code): string | false {
      if ((lang ?? '').trim().toLowerCase() === 'mermaid') return diagramPlaceholder(text);
      return false;
    },
    link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { href, title, tokens }: Tokens.Link): string {
      const label = this.parser.parseInline(tokens);
      if (!SAFE_LINK.test(href.trim())) return label;
      const titled = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href.trim())}"${titled} target="_blank" rel="noopener noreferrer">${label}</a>`;
    },
    image({ text }: Tokens.Image): string {
      return `<span class="image-alt">[${escapeHtml(text)}]</span>`;
    },
  },
});

export function markdownToHtml(markdown: string): string {
  return marked.parse(markdown, { async: false });
}
