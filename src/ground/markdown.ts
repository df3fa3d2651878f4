/**
 * Small helpers shared by the markdown renderers. What they are given is a model's text as often as not,
 * and it reaches another model's prompt as written: nothing here escapes it (a table would, `|` → `\|`,
 * and a line break → a space), so prose goes in lists, and code in spans and fences that are longer than
 * any run of backticks inside them.
 */

/** A list item whose text may span lines: its later lines indented under it, so the list holds. */
export const item = (text: string, marker = '-'): string =>
  `${marker} ${text.trim().replace(/\n/g, `\n${' '.repeat(marker.length + 1)}`)}`.replace(/ +$/gm, '');

export const bullets = (items: readonly string[], empty = '_None._'): string => (items.length === 0 ? empty : items.map((i) => item(i)).join('\n'));

/** Inline code holding any text: delimited by more backticks than any run inside it (CommonMark). */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** A fenced block holding any text: its fence longer than any fence-like run of backticks in it. */
export function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/^[ \t]*(`{3,})/gm)].map((m) => m[1]!.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text.replace(/\n$/, '')}\n${ticks}`;
}

/** Renders argv as a shell command a person can paste (single-quoting words that need it). */
export const shellCommand = (argv: readonly string[]): string =>
  argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');

export const document = (...sections: (string | null)[]): string =>
  sections
    .filter((s): s is string => s !== null)
    .join('\n\n')
    .trimEnd() + '\n';
