/**
 * The files a pip page lists — a project page of an index (PEP 503 HTML, PEP 691 JSON) or a
 * find-links page — as the proxy keeps them (listedKey): the only files it then lets through, so a
 * file's path is the registry's choice, never the sandbox's. Pure.
 */
import { listedKey } from './registry-paths.ts';

const HREF = /<a\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
const BASE = /<base\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

const unescapeHtml = (text: string): string =>
  text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_all, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[name] ?? '');

/** The files `body` links to, resolved against the page's URL (or its `<base href>`). */
export function listedFiles(body: string, pageUrl: URL, contentType: string): string[] {
  const links: string[] = [];
  if (/json/i.test(contentType)) {
    try {
      const parsed = JSON.parse(body) as { files?: { url?: unknown }[] };
      for (const file of parsed.files ?? []) if (typeof file.url === 'string') links.push(file.url);
    } catch {
      return [];
    }
  } else {
    for (const match of body.matchAll(HREF)) links.push(unescapeHtml(match[1] ?? match[2] ?? match[3] ?? ''));
  }
  const base = /json/i.test(contentType) ? null : BASE.exec(body);
  let against = pageUrl;
  if (base) {
    try {
      against = new URL(unescapeHtml(base[1] ?? base[2] ?? base[3] ?? ''), pageUrl);
    } catch {
      against = pageUrl;
    }
  }
  const keys: string[] = [];
  for (const link of links) {
    try {
      const url = new URL(link, against);
      if (url.protocol === 'http:' || url.protocol === 'https:') keys.push(listedKey(url));
    } catch {
      // not a URL: nothing to let through
    }
  }
  return keys;
}
