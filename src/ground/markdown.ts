/** Small helpers shared by the markdown renderers. */
export const bullets = (items: readonly string[], empty = '_None._'): string => (items.length === 0 ? empty : items.map((item) => `- ${item}`).join('\n'));

/** A table cell: no pipes or newlines may break the row. */
export const cell = (value: string): string => value.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export const table = (header: readonly string[], rows: readonly (readonly string[])[]): string =>
  [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join('\n');

/** Renders argv as a shell command a person can paste (single-quoting words that need it). */
export const shellCommand = (argv: readonly string[]): string =>
  argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');

export const document = (...sections: (string | null)[]): string =>
  sections
    .filter((s): s is string => s !== null)
    .join('\n\n')
    .trimEnd() + '\n';
