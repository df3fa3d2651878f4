/**
 * Applies an Engineer's edits to a file, or says exactly why not: a SEARCH text that is not in the file,
 * or is in it more than once, is refused with the reason and the file's current lines around the
 * nearest match — never skipped, never applied to the wrong place. A whole new content is accepted only
 * for a small file. Pure.
 */
import type { EditsReply, SearchReplace } from '../../documents/index.ts';

/** Files up to this many lines may be replaced whole; larger ones take SEARCH/REPLACE blocks. */
export const WHOLE_FILE_LINES = 80;
/** Lines shown either side of the nearest match when a SEARCH text is not found. */
const CONTEXT_LINES = 4;

export type Applied = { ok: true; content: string } | { ok: false; reason: string };

export function applyEdits(current: string, reply: EditsReply): Applied {
  if (reply.kind === 'whole') {
    const lines = current.split('\n').length;
    if (lines > WHOLE_FILE_LINES) {
      return {
        ok: false,
        reason: `${reply.path} has ${lines} lines: reply with SEARCH/REPLACE blocks for the lines that change, not the whole file (whole files only up to ${WHOLE_FILE_LINES} lines)`,
      };
    }
    return { ok: true, content: reply.content };
  }
  const eol = current.includes('\r\n') ? '\r\n' : '\n';
  let text = current.replace(/\r\n/g, '\n');
  for (const [index, edit] of reply.edits.entries()) {
    const applied = applyOne(text, edit, `block ${index + 1} of ${reply.edits.length}`, reply.path);
    if (!applied.ok) return applied;
    text = applied.content;
  }
  return { ok: true, content: eol === '\n' ? text : text.replace(/\n/g, eol) };
}

function applyOne(text: string, edit: SearchReplace, which: string, file: string): Applied {
  const search = edit.search.replace(/\r\n/g, '\n');
  const found = occurrences(text, search);
  if (found.length === 1) return { ok: true, content: text.slice(0, found[0]) + edit.replace + text.slice(found[0]! + search.length) };
  if (found.length > 1) {
    const lines = found.map((at) => text.slice(0, at).split('\n').length);
    return {
      ok: false,
      reason: `${which}: its SEARCH text is in ${file} ${found.length} times (at lines ${lines.join(', ')}), so where to apply it is unclear. Include more of the surrounding lines so it matches exactly once. Nothing was applied.`,
    };
  }
  return {
    ok: false,
    reason: `${which}: its SEARCH text is not in ${file} (it must match the file exactly, spaces included). Nothing was applied. ${nearest(text, search)}`,
  };
}

function occurrences(text: string, search: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + 1)) found.push(at);
  return found;
}

/** The file's lines around the window most like the SEARCH text, numbered, for the model to copy from. */
function nearest(text: string, search: string): string {
  const lines = text.split('\n');
  const wanted = search
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (wanted.length === 0 || lines.length === 0) return '';
  let best = { at: 0, score: -1 };
  for (let at = 0; at < lines.length; at++) {
    let score = 0;
    for (let k = 0; k < wanted.length && at + k < lines.length; k++) score += similarity(lines[at + k]!.trim(), wanted[k]!);
    if (score > best.score) best = { at, score };
  }
  const from = Math.max(0, best.at - CONTEXT_LINES);
  const to = Math.min(lines.length, best.at + wanted.length + CONTEXT_LINES);
  const shown = lines
    .slice(from, to)
    .map((line, i) => `${String(from + i + 1).padStart(4)}| ${line}`)
    .join('\n');
  return `The nearest lines in the file now (line numbers are not part of the file):\n${shown}`;
}

/** 1 for equal lines, else the share of the shorter line's words found in the other (0..1). */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const words = (s: string) => s.split(/\W+/).filter(Boolean);
  const [x, y] = [words(a), words(b)];
  if (x.length === 0 || y.length === 0) return 0;
  const set = new Set(y);
  return (x.filter((w) => set.has(w)).length / Math.max(x.length, y.length)) * 0.9;
}
