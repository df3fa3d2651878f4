/**
 * Model text used as metadata — a commit subject, a document's title line — is made one printable line
 * here: terminal escape sequences are removed whole (Node's own `stripVTControlCharacters`), then
 * the other control characters (C0, C1, DEL), line and paragraph separators and the invisible characters
 * that reorder or hide text (bidirectional overrides and isolates, zero-width characters) become
 * spaces, runs of white space become one, and the ends are trimmed. What the text says stays; only
 * what a terminal, `git log --oneline` or a Markdown heading would misread goes. What a control
 * character is comes from control-characters.ts, shared with the terminal's cleaning
 * (../terminal-text.ts), which shows them as stand-ins instead.
 */
import { stripVTControlCharacters } from 'node:util';
import { CONTROL, INVISIBLE, LAYOUT } from './control-characters.ts';

/** Characters that must not reach a one-line field: controls (tab and newline too) and invisible marks. */
const UNPRINTABLE = new RegExp(`[${LAYOUT}${CONTROL}${INVISIBLE}]`, 'gu');

/** The text as one printable line (see the module comment). */
export function oneLine(text: string): string {
  return stripVTControlCharacters(text).replace(UNPRINTABLE, ' ').replace(/\s+/gu, ' ').trim();
}

/** The longest commit subject git's tools and hosts show unwrapped. */
export const MAX_SUBJECT = 72;

/**
 * The text as one printable line of at most `max` characters (code points): cut at the last word
 * boundary that fits, with "…" to show the cut; a single word longer than that is cut inside.
 * `fallback` stands in for text with nothing printable in it.
 */
export function shortLine(text: string, max: number = MAX_SUBJECT, fallback = 'untitled'): string {
  const line = oneLine(text) || fallback;
  const chars = Array.from(line);
  if (chars.length <= max) return line;
  const room = chars.slice(0, max - 1).join('');
  const space = room.lastIndexOf(' ');
  // A boundary in the first half would drop most of the text: cut inside the word instead.
  const cut = space >= (max - 1) / 2 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s,;:.-]+$/u, '')}…`;
}

/** A commit subject from model text: one printable line of at most 72 characters. */
export const commitSubject = (text: string): string => shortLine(text, MAX_SUBJECT, 'update');
