/**
 * What a control character is, defined once for the two ways sopworks makes text it did not write
 * safe: `oneLine` (text/one-line.ts) for metadata — a commit subject, a title — where such characters
 * are removed, and `cleanLine`/`cleanBlock`/`terminalSafe` (terminal-text.ts) for output, where they
 * are shown as visible stand-ins. Each is a character-class body (for `new RegExp(`[${…}]`)`).
 */

/** Tab and newline: the two controls text with a layout of its own keeps. */
export const LAYOUT = '\\t\\n';

/**
 * The characters a terminal obeys or that make a reader misread a line: C0 but tab and newline, DEL
 * and C1 (some terminals take U+009B as CSI), the line and paragraph separators, and the
 * bidirectional marks, embeddings, overrides and isolates (which reorder what is shown).
 */
export const CONTROL = '\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';

/**
 * Invisible characters that hide or join text without moving the cursor: zero-width space, non-joiner
 * and joiner, word joiner and invisible operators, the byte-order mark. Harmless on a terminal (shown
 * as they are there), but in one-line metadata they make two texts that look the same differ.
 */
export const INVISIBLE = '\\u200b-\\u200d\\u2060-\\u2065\\ufeff';
