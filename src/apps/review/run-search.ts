/**
 * A plain-text search over one run: its board messages, the files they put in the repository, and its
 * model exchanges (prompts and replies). Case-insensitive; each hit says where it is, with a snippet
 * around the first match, so the page can link to it. Pure.
 */
import type { Message } from '../../engine/board/index.ts';
import { artifactsOf } from './artifacts.ts';
import type { IndexedExchange } from './read-run.ts';

export interface SearchHit {
  kind: 'message' | 'file' | 'exchange';
  /** What to link to: a message id, a file path, an exchange number (0-based). */
  target: string;
  /** The message that published the file, for a file. */
  messageId: string | null;
  /** One line naming the hit: "PRD from product-manager", "src/cli.js", "engineer review_file src/cli.js". */
  title: string;
  snippet: string;
}

export interface SearchResult {
  query: string;
  hits: SearchHit[];
  /** Whether more hits were found than returned. */
  truncated: boolean;
}

const SNIPPET = 60;

function snippetOf(text: string, at: number, length: number): string {
  const start = Math.max(0, at - SNIPPET);
  const end = Math.min(text.length, at + length + SNIPPET);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ')}${end < text.length ? '…' : ''}`;
}

export function searchRun(messages: readonly Message[], exchanges: readonly IndexedExchange[], query: string, limit = 50): SearchResult {
  const needle = query.trim().toLowerCase();
  const hits: SearchHit[] = [];
  let found = 0;
  const consider = (text: string, hit: Omit<SearchHit, 'snippet'>) => {
    const at = text.toLowerCase().indexOf(needle);
    if (at < 0) return;
    found += 1;
    if (hits.length < limit) hits.push({ ...hit, snippet: snippetOf(text, at, needle.length) });
  };
  if (needle === '') return { query, hits, truncated: false };
  for (const m of messages) {
    consider(`${m.type} ${m.from} → ${m.to}\n${JSON.stringify(m.payload, null, 1)}`, {
      kind: 'message',
      target: m.id,
      messageId: m.id,
      title: `${m.id} ${m.type} from ${m.from}`,
    });
  }
  for (const { message, files } of artifactsOf(messages)) {
    for (const file of files) consider(file.content, { kind: 'file', target: file.path, messageId: message.id, title: `${file.path} (${message.id})` });
  }
  for (const { index, exchange: x } of exchanges) {
    const text = [...x.messages.map((m) => m.content), x.reply].join('\n');
    consider(text, {
      kind: 'exchange',
      target: String(index),
      messageId: null,
      title: `exchange #${index + 1}: ${x.role} ${x.action}${x.key ? ` ${x.key}` : ''}`,
    });
  }
  return { query, hits, truncated: found > hits.length };
}
